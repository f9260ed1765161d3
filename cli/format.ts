// Text helpers for the command-line runner: colours (only on a terminal, never with NO_COLOR),
// untrusted text made safe for a terminal, and long strings cut to a line. Figures (money, counts, durations) come from the engine's one
// formatting module, workers/engine/format.ts.

export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

/** Colour only when writing to a terminal and NO_COLOR (https://no-color.org) is unset or empty. */
export function colorWanted(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

export function createStyle(enabled: boolean): Style {
  const wrap = (open: number, close: number) => (text: string) =>
    enabled && text ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}

/**
 * What a terminal would take as a command rather than text: C0 controls (ESC, and with it every
 * CSI and OSC sequence: OSC 52 writes the clipboard, CSI 2J clears the screen, OSC 8 makes a link
 * whose text is not its target; CR and backspace rewrite what was printed), DEL, C1 controls
 * (U+009B is CSI on its own) and the bidirectional overrides that show text in another order than
 * it is. `\t` and `\n` are kept apart: text may keep its lines.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point.
const TERMINAL_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- the same, \t and \n included.
const TERMINAL_UNSAFE_ALL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const shownEscaped = (char: string): string => {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * Untrusted text (a model's reply, a run file's events, a results file's names, an error that
 * quotes a server) as a terminal must see it: every control character written out (`\x1b`,
 * `\x9b`, `\u202e`), so that it is read, never obeyed. The one function every print site of
 * untrusted text goes through (directly, through `oneLine`, or through `terminalValue`); colours
 * are added after it, by our own code only. `lines`: keep `\n` and `\t`.
 */
export function terminalText(text: string, lines = true): string {
  return text.replace(lines ? TERMINAL_UNSAFE : TERMINAL_UNSAFE_ALL, shownEscaped);
}

/** Past this depth, a value printed is shown as "…" (events and reports are shallow). */
const PRINT_DEPTH = 64;

/** A JSON-shaped value with every string (object keys included) made safe by `terminalText`. */
export function terminalValue<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return terminalText(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (depth > PRINT_DEPTH) return '…' as T;
  if (Array.isArray(value)) return value.map((item: unknown) => terminalValue(item, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(out, terminalText(key), { value: terminalValue(item, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out as T;
}

/** Characters JSON.stringify leaves as they are that a terminal may still obey (C1 controls and
 * the bidirectional overrides); written as JSON escapes, the line means the same. */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A value as one line of JSON for a terminal or a pipe (`--json`): JSON.stringify, with what it
 * leaves raw that a terminal would obey escaped too. */
export function jsonLine(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(JSON_UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One line, at most `max` characters, ending in "…" when cut; safe for a terminal. */
export function oneLine(text: string, max: number): string {
  const flat = terminalText(text.replace(/\s+/g, ' ').trim(), false);
  return flat.length > max ? `${flat.slice(0, Math.max(0, max - 1))}…` : flat;
}
