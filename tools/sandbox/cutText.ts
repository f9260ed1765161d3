// Shared by the sandboxes (Python, QuickJS): text they hand back is capped before it reaches the
// model's context, the run's events or the page, and what is cut says so and how much.

import { formatCount } from '../../workers/engine/format.ts';

/** Error text from a sandbox (a traceback, a thrown message), in characters: an 8 MB exception
 * must not ride along in every later prompt. */
export const MAX_ERROR_CHARS = 8 * 1024;

/** The line that stands for what was cut. */
export function cutNote(count: number, unit: 'characters' | 'bytes'): string {
  return `… [${formatCount(count)} more ${unit} cut]`;
}

/** `text` if it fits in `maxChars`; else its start (three quarters) and end (the rest) with a line
 * between saying how many characters were cut. The start of an error names it; its end is
 * often where the cause is. Never splits a surrogate pair. */
export function cutMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let head = Math.ceil(maxChars * 0.75);
  let tailStart = text.length - (maxChars - head);
  if (isHighSurrogate(text.charCodeAt(head - 1))) head--;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
  return `${text.slice(0, head)}\n${cutNote(tailStart - head, 'characters')}\n${text.slice(tailStart)}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
