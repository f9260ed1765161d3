// How deep a JSON text nests, counted on the text before it is parsed: JSON.parse itself copes
// with any depth, but what comes after it does not — structured cloning (postMessage, IndexedDB),
// JSON.stringify and every recursive walk overflow the stack somewhere past a few thousand
// levels, and a file nested 100,000 deep is 200 KB. Every file the page or the CLI reads is
// refused past its bound, with the reason, before it is parsed.

/** Walks JSON text's brackets outside strings (escapes and all; the text need not be valid JSON):
 * where it first nests past `maxDepth` (-1 when never), and whether it ends inside a string or an
 * unclosed [ or { (what a file cut short looks like, whatever words JSON.parse uses for it). */
function scan(text: string, maxDepth: number, stopPastDepth: boolean): { pastDepthAt: number; endsInside: boolean } {
  let depth = 0;
  let inString = false;
  let pastDepthAt = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth && pastDepthAt === -1) {
        pastDepthAt = i;
        if (stopPastDepth) break;
      }
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return { pastDepthAt, endsInside: inString || depth > 0 };
}

/** The first place `text` nests more than `maxDepth` arrays and objects deep (a character
 * offset), or -1 when it never does. */
export function nestingPast(text: string, maxDepth: number): number {
  return scan(text, maxDepth, true).pastDepthAt;
}

/** Whether JSON text stops inside a string or an unclosed [ or {: a file cut short. */
export function endsInsideValue(text: string): boolean {
  return scan(text, Infinity, false).endsInside;
}

/** Why a JSON text is refused for its nesting ("nested more than 128 levels deep"), or null. */
export function nestingProblem(text: string, maxDepth: number): string | null {
  return nestingPast(text, maxDepth) === -1 ? null : `nested more than ${maxDepth} levels deep; no file of this kind is`;
}
