import { describe, expect, it } from 'vitest';
import { pythonLength, pythonPrefix, pythonStrip } from './pythonStrings.ts';

describe('Python string operations', () => {
  it('strips what str.strip() strips, not what trim() does', () => {
    expect(pythonStrip('\n\t Documents:\nDoc 1: x\n\n')).toBe('Documents:\nDoc 1: x');
    expect(pythonStrip('\u001fa\u0085')).toBe('a');
    expect(pythonStrip('\ufeffa\ufeff')).toBe('\ufeffa\ufeff');
    expect(pythonStrip('   ')).toBe('');
  });

  it('cuts and counts by code points, as s[:n] and len(s) do', () => {
    expect(pythonPrefix('😀😀😀', 2)).toBe('😀😀');
    expect(pythonPrefix('ab😀c', 3)).toBe('ab😀');
    expect(pythonPrefix('abc', 10)).toBe('abc');
    expect(pythonPrefix('\ud800x', 1)).toBe('\ud800');
    expect(pythonLength('a😀b')).toBe(3);
    expect(pythonLength('\ud800\ud800')).toBe(2);
  });
});
