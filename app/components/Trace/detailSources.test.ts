import { describe, expect, it } from 'vitest';
import { readDetail } from './detail.ts';

describe('readDetail of a search over several sources', () => {
  it("reads each document's source and the sources that failed", () => {
    const detail = {
      query: 'zorblax',
      documents: [
        { id: 'doc-1#0', title: 'notes.md', text: 'The zorblax.', score: 3.2, source: 'documents' },
        { id: 'wikipedia-9', title: 'Zorblax', text: 'A bird.', score: Number.NaN, source: 'wikipedia' },
        { id: 'x', title: 'Untagged', text: '', score: 1, source: 42 },
      ],
      problems: [{ source: 'local', message: 'The search corpus could not be loaded (HTTP 404).' }, { source: 'bad' }],
    };
    expect(readDetail(detail)).toEqual({
      kind: 'documents',
      query: 'zorblax',
      documents: [
        { id: 'doc-1#0', title: 'notes.md', text: 'The zorblax.', score: 3.2, source: 'documents' },
        { id: 'wikipedia-9', title: 'Zorblax', text: 'A bird.', score: null, source: 'wikipedia' },
        { id: 'x', title: 'Untagged', text: '', score: 1 },
      ],
      added: null,
      problems: [{ source: 'local', message: 'The search corpus could not be loaded (HTTP 404).' }],
    });
  });
});
