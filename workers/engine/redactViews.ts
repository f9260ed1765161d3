// The ways a text can be read back by a parser, for finding a key in them (redact.ts): the text as
// it is, its JSON escapes and percent-escapes decoded (once, twice, three times: an escape of an
// escape), and each of those with its line breaks taken out (base64 wrapped MIME style, every 76
// characters). Each character of a view remembers where in the original text it came from, so a
// key found in a view is replaced in the original.

/** One reading of a text. `from[i]`/`to[i]`: the original characters view character i came from,
 * [from, to); null when the view is the original itself. */
export interface View {
  text: string;
  from: Int32Array | null;
  to: Int32Array | null;
}

/** JSON's escapes (`\u0073`, `\/`, `\\`, `\n` …) and runs of percent-escapes (`%73`, `%E2%82%AC`). */
const ESCAPE = /\\u([0-9a-fA-F]{4})|\\(["\\/nrtbf])|((?:%[0-9a-fA-F]{2})+)/g;
const SIMPLE: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
const LINE_BREAK = /\r\n|\n|\r/g;
/** Layers of escaping undone: a key JSON-escaped inside a JSON string inside a JSON string. */
const MAX_DECODES = 3;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** How many bytes a UTF-8 sequence that starts with `lead` has (0: not a lead byte). */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** A run of `%XX` escapes as characters: each output code unit with the run-relative span it came
 * from. A byte that is no part of valid UTF-8 stays as its three characters. */
function decodePercentRun(run: string, emit: (units: string, start: number, end: number) => void): void {
  const bytes = run.match(/%[0-9a-fA-F]{2}/g)!.map((escape) => Number.parseInt(escape.slice(1), 16));
  for (let i = 0; i < bytes.length; ) {
    const byte = bytes[i]!;
    const length = byte < 0x80 ? 1 : sequenceLength(byte);
    let decoded: string | null = length === 1 ? String.fromCharCode(byte) : null;
    if (length > 1 && i + length <= bytes.length) {
      try {
        decoded = utf8.decode(Uint8Array.from(bytes.slice(i, i + length)));
      } catch {
        decoded = null;
      }
    }
    if (decoded === null) {
      for (let c = 0; c < 3; c++) emit(run[i * 3 + c]!, i * 3 + c, i * 3 + c + 1);
      i += 1;
    } else {
      emit(decoded, i * 3, (i + length) * 3);
      i += length;
    }
  }
}

/** Builds a view of `parent` from its text's pieces, each with its span in the parent's text. */
class ViewBuilder {
  private readonly pieces: string[] = [];
  private readonly from: number[] = [];
  private readonly to: number[] = [];

  constructor(private readonly spans: boolean) {}

  /** Characters kept as they are, parent positions [start, start + text.length). */
  literal(text: string, start: number): void {
    this.pieces.push(text);
    if (!this.spans) return;
    for (let i = 0; i < text.length; i++) {
      this.from.push(start + i);
      this.to.push(start + i + 1);
    }
  }

  /** Code units that all came from the parent's [start, end). */
  decoded(units: string, start: number, end: number): void {
    this.pieces.push(units);
    if (!this.spans) return;
    for (let i = 0; i < units.length; i++) {
      this.from.push(start);
      this.to.push(end);
    }
  }

  build(parent: View): View {
    const text = this.pieces.join('');
    if (!this.spans) return { text, from: null, to: null };
    const from = new Int32Array(this.from.length);
    const to = new Int32Array(this.to.length);
    for (let i = 0; i < from.length; i++) {
      from[i] = parent.from ? parent.from[this.from[i]!]! : this.from[i]!;
      to[i] = parent.to ? parent.to[this.to[i]! - 1]! : this.to[i]!;
    }
    return { text, from, to };
  }
}

/** The view with one layer of escapes decoded, or null when it has none. */
function decodeOnce(view: View, spans: boolean): View | null {
  const text = view.text;
  if (!text.includes('\\') && !text.includes('%')) return null;
  const builder = new ViewBuilder(spans);
  let at = 0;
  let changed = false;
  for (const match of text.matchAll(ESCAPE)) {
    const start = match.index;
    if (start > at) builder.literal(text.slice(at, start), at);
    const [whole, hex, simple, percent] = match;
    if (hex !== undefined) builder.decoded(String.fromCharCode(Number.parseInt(hex, 16)), start, start + 6);
    else if (simple !== undefined) builder.decoded(SIMPLE[simple]!, start, start + 2);
    else if (percent !== undefined) decodePercentRun(percent, (units, from, to) => builder.decoded(units, start + from, start + to));
    at = start + whole.length;
    changed = true;
  }
  if (!changed) return null;
  if (at < text.length) builder.literal(text.slice(at), at);
  return builder.build(view);
}

/** The view with its line breaks taken out, or null when it has none. */
function unwrapped(view: View, spans: boolean): View | null {
  const text = view.text;
  if (!text.includes('\n') && !text.includes('\r')) return null;
  const builder = new ViewBuilder(spans);
  let at = 0;
  for (const match of text.matchAll(LINE_BREAK)) {
    if (match.index > at) builder.literal(text.slice(at, match.index), at);
    at = match.index + match[0].length;
  }
  if (at < text.length) builder.literal(text.slice(at), at);
  return builder.build(view);
}

/** Every reading of `text` a key is looked for in; `spans` when the matches must be mapped back. */
export function viewsOf(text: string, spans: boolean): View[] {
  const decoded: View[] = [{ text, from: null, to: null }];
  for (let layer = 0; layer < MAX_DECODES; layer++) {
    const next = decodeOnce(decoded.at(-1)!, spans);
    if (next === null) break;
    decoded.push(next);
  }
  const views = [...decoded];
  for (const view of decoded) {
    const flat = unwrapped(view, spans);
    if (flat !== null) views.push(flat);
  }
  return views;
}

/** Where view character `i` begins in the original text. */
export const sourceStart = (view: View, i: number): number => (view.from ? view.from[i]! : i);
/** Where view character `i` ends in the original text. */
export const sourceEnd = (view: View, i: number): number => (view.to ? view.to[i]! : i + 1);

/** Characters that may sit inside an escape (`\u00hh`, `%hh`) or a wrapped line: with a key's own
 * characters, what a stream holds back until a character outside them shows the key cannot go on. */
export const ESCAPE_CHARACTERS = '\\%unr0123456789abcdefABCDEF\r\n';

/** A trailing escape cut short (`\u00`, `%7`, `\`): a text that ends inside an escape. */
export const CUT_ESCAPE_AT_END = /(?:\\u[0-9a-fA-F]{0,3}|\\|%[0-9a-fA-F]?)$/;
