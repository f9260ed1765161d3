import { describe, expect, it } from 'vitest';
import { importedNotice } from './runFileImport.ts';

describe('what an import says it did', () => {
  it('names copies and runs already kept: an import never replaces a run', () => {
    expect(importedNotice('a.json', [{ as: 'new' }])).toBe('Imported 1 run from "a.json".');
    expect(importedNotice('a.json', [{ as: 'copy' }])).toBe(
      'Imported 1 run from "a.json", as a copy: a run with its id is already in your history, so this one has an id of its own.',
    );
    expect(importedNotice('a.json', [{ as: 'same' }])).toBe('"a.json" holds a run that is already in your history: nothing was added.');
    expect(importedNotice('a.json', [{ as: 'same' }, { as: 'same' }])).toBe('Every run in "a.json" is already in your history: nothing was added.');
    expect(importedNotice('a.json', [{ as: 'new' }, { as: 'copy' }, { as: 'copy' }, { as: 'same' }])).toBe(
      'Imported 3 runs from "a.json" (2 runs as copies: runs with their ids are already in your history, so these have ids of their own); 1 run was already in your history.',
    );
  });
});
