import { describe, expect, it } from 'vitest';
import { CappedOutput, lastTracebackLines } from './pyodideSession.ts';

const encode = (text: string) => new TextEncoder().encode(text);

describe('CappedOutput', () => {
  it('keeps everything under the cap', () => {
    const output = new CappedOutput(100);
    expect(output.write(encode('hello\n'))).toBe(6);
    output.write(encode('world'));
    expect(output.text()).toBe('hello\nworld');
    expect(output.truncated).toBe(false);
  });

  it('cuts at the cap, consumes all bytes, and marks truncation', () => {
    const output = new CappedOutput(8);
    expect(output.write(encode('0123456789'))).toBe(10);
    output.write(encode('more'));
    expect(output.text()).toBe('01234567');
    expect(output.truncated).toBe(true);
  });

  it('copies each buffer, since Pyodide reuses it', () => {
    const output = new CappedOutput(100);
    const buffer = encode('abc');
    output.write(buffer);
    buffer.set(encode('xyz'));
    expect(output.text()).toBe('abc');
  });

  it('never ends on half a UTF-8 character', () => {
    const output = new CappedOutput(5);
    output.write(encode('éééé')); // 2 bytes each: the cap falls inside the third
    expect(output.text()).toBe('éé');
    const emoji = new CappedOutput(7);
    emoji.write(encode('a😀😀')); // 1 + 4 + 4 bytes
    expect(emoji.text()).toBe('a😀');
  });
});

describe('CappedOutput.textWithNote', () => {
  it('says how many bytes were cut, half a character included', () => {
    const output = new CappedOutput(5);
    output.write(encode('éééé')); // 8 bytes; 4 kept
    output.write(encode('more'));
    expect(output.textWithNote()).toBe('éé\n… [8 more bytes cut]\n');
    const whole = new CappedOutput(100);
    whole.write(encode('fits\n'));
    expect(whole.textWithNote()).toBe('fits\n');
  });
});

describe('lastTracebackLines', () => {
  const pyodideTraceback = [
    'Traceback (most recent call last):',
    '  File "/lib/python314.zip/_pyodide/_base.py", line 539, in eval_code',
    '    .run(globals, locals)',
    '  File "/lib/python314.zip/_pyodide/_base.py", line 366, in run',
    '    coroutine = eval(self.code, globals, locals)',
    '  File "<exec>", line 3, in <module>',
    '  File "<exec>", line 2, in f',
    'ValueError: bad',
    '',
  ].join('\n');

  it("drops Pyodide's own frames", () => {
    expect(lastTracebackLines(pyodideTraceback)).toBe(
      'Traceback (most recent call last):\n  File "<exec>", line 3, in <module>\n  File "<exec>", line 2, in f\nValueError: bad',
    );
  });

  it('keeps only the last lines of a long traceback', () => {
    expect(lastTracebackLines(pyodideTraceback, 2)).toBe('  File "<exec>", line 2, in f\nValueError: bad');
  });
});
