import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkSections, markdownSections, pageSections, textSections } from './chunking.ts';

describe('markdownSections', () => {
  it('starts a section at each heading and keeps the heading text', () => {
    const sections = markdownSections('Intro line.\n\n# Birds\nThe zorblax sings.\n\n## Habitat ##\nLakes and fens.\n');
    expect(sections).toEqual([
      { heading: null, text: 'Intro line.\n' },
      { heading: 'Birds', text: 'The zorblax sings.\n' },
      { heading: 'Habitat', text: 'Lakes and fens.\n' },
    ]);
  });

  it('ignores heading-like lines inside code fences, and reads CRLF files', () => {
    const sections = markdownSections('# Code\r\n```sh\r\n# not a heading\r\necho hi\r\n```\r\nAfter.\r\n');
    expect(sections).toHaveLength(1);
    expect(sections[0]?.heading).toBe('Code');
    expect(sections[0]?.text).toContain('# not a heading');
    expect(sections[0]?.text).not.toContain('\r');
  });

  it('drops sections with no text (a heading directly followed by another)', () => {
    expect(markdownSections('# A\n# B\nbody')).toEqual([{ heading: 'B', text: 'body' }]);
  });
});

describe('pageSections', () => {
  it('heads each page with its number and skips blank pages', () => {
    expect(pageSections(['first', '  \n', 'third'])).toEqual([
      { heading: 'page 1', text: 'first' },
      { heading: 'page 3', text: 'third' },
    ]);
  });
});

describe('chunkSections', () => {
  it('packs short paragraphs of a section together and keeps sections apart', () => {
    const chunks = chunkSections([
      { heading: 'A', text: 'One.\n\nTwo.\n\nThree.' },
      { heading: 'B', text: 'Four.' },
    ]);
    expect(chunks).toEqual([
      { index: 0, heading: 'A', text: 'One.\n\nTwo.\n\nThree.' },
      { index: 1, heading: 'B', text: 'Four.' },
    ]);
  });

  it('splits a long paragraph at sentence ends, then at spaces, never above the limit', () => {
    const sentence = 'The zorblax migrates to Lake Vattern every April. ';
    const chunks = chunkSections(textSections(sentence.repeat(10)), { maxChars: 120 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(120);
      expect(chunk.text.startsWith('The zorblax')).toBe(true);
    }
    const words = chunkSections(textSections('word '.repeat(100)), { maxChars: 100 });
    expect(words.every((chunk) => chunk.text.length <= 100)).toBe(true);
    expect(chunkSections(textSections('x'.repeat(250)), { maxChars: 100 }).map((c) => c.text.length)).toEqual([100, 100, 50]);
  });

  it('keeps every character but whitespace, in order, in passages within the limit (any text)', () => {
    const words = fc.stringMatching(/^[a-z.!?]{1,12}$/);
    const separators = fc.constantFrom(' ', '\n', '\n\n', '  \n \n', '\t');
    const texts = fc.array(fc.tuple(words, separators), { maxLength: 400 }).map((parts) => parts.flat().join(''));
    fc.assert(
      fc.property(fc.oneof(texts, fc.string({ maxLength: 2000 })), fc.integer({ min: 100, max: 600 }), (text, maxChars) => {
        const chunks = chunkSections(textSections(text), { maxChars });
        const visible = (value: string) => value.replace(/\s+/g, '');
        expect(chunks.map((chunk) => visible(chunk.text)).join('')).toBe(visible(text));
        for (const [i, chunk] of chunks.entries()) {
          expect(chunk.index).toBe(i);
          expect(chunk.text.length).toBeLessThanOrEqual(maxChars);
          expect(chunk.text.trim()).not.toBe('');
        }
      }),
    );
  });
});
