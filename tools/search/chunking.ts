// Cuts a document's text into passages small enough to search and to show a model: paragraphs
// packed up to a size, split at sentences (then at spaces) when one paragraph is too long, and
// each passage labelled with the section it came from (a Markdown heading or a PDF page).

/** A stretch of a document under one heading (a Markdown section, a PDF page, or the whole text). */
export interface DocumentSection {
  heading: string | null;
  text: string;
}

export interface TextChunk {
  /** Position in the document, from 0. */
  index: number;
  heading: string | null;
  text: string;
}

export interface ChunkOptions {
  /** Longest passage, in characters; 1,000 unless given. */
  maxChars?: number;
}

export const DEFAULT_CHUNK_CHARS = 1000;
const MIN_CHUNK_CHARS = 100;

/** Plain text: one section, paragraphs separated by blank lines. */
export function textSections(text: string): DocumentSection[] {
  return [{ heading: null, text: normaliseNewlines(text) }];
}

/** Markdown: a section per ATX heading (`#` … `######`), headings inside code fences ignored. */
export function markdownSections(markdown: string): DocumentSection[] {
  const sections: DocumentSection[] = [];
  let heading: string | null = null;
  let lines: string[] = [];
  let fence: string | null = null;
  const close = () => {
    const text = lines.join('\n');
    if (text.trim()) sections.push({ heading, text });
    lines = [];
  };
  for (const line of normaliseNewlines(markdown).split('\n')) {
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark && (fence === null || fenceMark.startsWith(fence))) {
      fence = fence === null ? fenceMark : null;
      lines.push(line);
      continue;
    }
    const match = fence === null ? /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line) : null;
    if (match) {
      close();
      heading = match[1] || null;
      continue;
    }
    lines.push(line);
  }
  close();
  return sections;
}

/** PDF pages: one section per page with text, headed "page N". */
export function pageSections(pages: readonly string[]): DocumentSection[] {
  return pages.flatMap((text, i) => (text.trim() ? [{ heading: `page ${i + 1}`, text: normaliseNewlines(text) }] : []));
}

/** The passages of a document's sections, numbered in order. */
export function chunkSections(sections: readonly DocumentSection[], options: ChunkOptions = {}): TextChunk[] {
  const maxChars = Math.max(MIN_CHUNK_CHARS, options.maxChars ?? DEFAULT_CHUNK_CHARS);
  const chunks: TextChunk[] = [];
  for (const section of sections) {
    for (const text of packPieces(paragraphPieces(section.text, maxChars), maxChars, '\n\n')) {
      chunks.push({ index: chunks.length, heading: section.heading, text });
    }
  }
  return chunks;
}

function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Paragraphs with their inner whitespace collapsed, each at most `maxChars` long. */
function paragraphPieces(text: string, maxChars: number): string[] {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .flatMap((paragraph) => (paragraph.length <= maxChars ? [paragraph] : splitLong(paragraph, maxChars)));
}

/** A paragraph too long for one passage, cut at sentence ends, or at spaces, or hard. */
function splitLong(paragraph: string, maxChars: number): string[] {
  const sentences = paragraph.match(/[^.!?]*(?:[.!?]+["'”’)\]]*\s*|$)/g) ?? [paragraph];
  const words = sentences.flatMap((sentence) => (sentence.length <= maxChars ? [sentence.trim()] : splitWords(sentence, maxChars)));
  return packPieces(words.filter(Boolean), maxChars, ' ');
}

function splitWords(text: string, maxChars: number): string[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((word) => {
      const parts: string[] = [];
      for (let at = 0; at < word.length; at += maxChars) parts.push(word.slice(at, at + maxChars));
      return parts;
    });
}

/** Joins consecutive pieces (each at most `maxChars`) into passages of at most `maxChars`. */
function packPieces(pieces: readonly string[], maxChars: number, separator: string): string[] {
  const packed: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (!current) current = piece;
    else if (current.length + separator.length + piece.length <= maxChars) current = `${current}${separator}${piece}`;
    else {
      packed.push(current);
      current = piece;
    }
  }
  if (current) packed.push(current);
  return packed;
}
