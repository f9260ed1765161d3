// How deep a JSON text nests, counted on the text before it is parsed: JSON.parse itself copes
// with any depth, but what comes after it does not — structured cloning (postMessage, IndexedDB),
// JSON.stringify and every recursive walk overflow the stack somewhere past a few thousand
// levels, and a file nested 100,000 deep is 200 KB. Every file the page or the CLI reads is
// refused past its bound, with the reason, before it is parsed.

/**
 * The first place `text` nests more than `maxDepth` arrays and objects deep (a character offset),
 * or -1 when it never does. Strings are skipped, escapes and all; the text need not be valid JSON.
 */
export function nestingPast(text: string, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}

/** Why a JSON text is refused for its nesting ("nested more than 128 levels deep"), or null. */
export function nestingProblem(text: string, maxDepth: number): string | null {
  return nestingPast(text, maxDepth) === -1 ? null : `nested more than ${maxDepth} levels deep; no file of this kind is`;
}
