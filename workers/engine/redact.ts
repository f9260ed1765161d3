// Keys never leave in data. A run knows the keys its host holds (the worker's key ring, the CLI's
// environment); any text of the run that could be kept or shown — every event, the completion a
// protocol reads on, the calls it parses from it — has each key replaced by a marker naming its
// provider, in every form a server might echo it in (as is, base64 at any alignment inside longer
// base64 in either alphabet, URL-encoded, JSON-escaped) and in every reading a parser would turn
// back into it: JSON's `\u0073` escapes and percent-escapes, decoded up to three layers deep, and
// base64 wrapped over several lines (redactViews.ts). A stream is redacted across its pieces and
// never lets out a key cut short at its end (StreamRedactor). Before a file is written, `keysIn`
// scans its text once more, decoding as it scans.

import { CUT_ESCAPE_AT_END, ESCAPE_CHARACTERS, sourceEnd, sourceStart, viewsOf } from './redactViews.ts';

/** A key, and the provider it belongs to (named in the marker, never the key). */
export interface Secret {
  provider: string;
  value: string;
}

/** Shorter values are not redacted: they would mangle ordinary text, and no API key is this short. */
export const MIN_SECRET_CHARS = 8;

/** What a key is replaced with. */
export function secretMarker(provider: string): string {
  return `[${provider} API key removed]`;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    out += B64[a >> 2]! + B64[((a & 3) << 4) | (b >> 4)]!;
    out += i + 1 < bytes.length ? B64[((b & 15) << 2) | (c >> 6)]! : '=';
    out += i + 2 < bytes.length ? B64[c & 63]! : '=';
  }
  return out;
}

/**
 * The key's base64 as it appears inside any base64 text (`Basic base64(user:key)`, a JWT's
 * payload): for each of the three alignments the key can start at, the characters that depend on
 * its bytes alone; in the standard and the URL-safe alphabet.
 */
function base64Forms(value: string): string[] {
  const bytes = new TextEncoder().encode(value);
  // The key alone, its last character and padding included.
  const whole = base64(bytes);
  const forms: string[] = [whole, whole.replace(/=+$/, ''), whole.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const encoded = base64(padded);
    const form = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    forms.push(form, form.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms;
}

/** Every form of a key a text might hold it in, longest first. */
export function secretForms(value: string): string[] {
  const urlEncoded = encodeURIComponent(value);
  const forms = [
    value,
    ...base64Forms(value),
    urlEncoded,
    urlEncoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    new URLSearchParams({ k: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
  ];
  return [...new Set(forms)].filter((form) => form.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
}

/** Why a file was not written: it still holds the keys of these providers (found by the last scan
 * before writing, `keysIn`): the CLI's --save, the page's exports. */
export function keysLeftProblem(providers: readonly string[]): string {
  const named = providers.map((provider) => `"${provider}"`).join(', ');
  return `it holds the API key of ${named}, and a file never carries a key. The run that holds it was recorded before keys were removed from runs, or imported: leave it out.`;
}

interface Form {
  text: string;
  marker: string;
  provider: string;
}

/** A part of a text that holds a key (in some form): [start, end) of the original, and its marker. */
interface Range {
  start: number;
  end: number;
  marker: string;
}

/** The ranges joined where they overlap, in order (the first one's marker kept). */
function merged(ranges: Range[]): Range[] {
  const sorted = ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Range[] = [];
  for (const range of sorted) {
    const last = out.at(-1);
    if (last && range.start < last.end) last.end = Math.max(last.end, range.end);
    else out.push({ ...range });
  }
  return out;
}

function replaced(text: string, ranges: readonly Range[]): string {
  if (ranges.length === 0) return text;
  let out = '';
  let at = 0;
  for (const range of ranges) {
    out += text.slice(at, range.start) + range.marker;
    at = range.end;
  }
  return out + text.slice(at);
}

export interface RedactorOptions {
  /** What a key is replaced with (default: `secretMarker`, naming its provider). */
  marker?: (provider: string) => string;
}

/** Values nested deeper than this are redacted as their JSON text. */
const WALK_DEPTH = 64;

/**
 * Replaces held keys in text and in JSON-shaped values: in every reading a parser would turn back
 * into the key (redactViews.ts: JSON and percent escapes, up to three layers deep, and line breaks
 * taken out), in each of the key's forms (as is, base64 at any alignment in either alphabet,
 * URL-encoded, JSON-escaped).
 */
export class Redactor {
  private readonly forms: Form[];
  /** The characters a key's forms and their escapes are made of (a stream's tail waits while it
   * is made of them). */
  private readonly keyish = new Set<number>();

  constructor(secrets: readonly Secret[], options: RedactorOptions = {}) {
    const seen = new Set<string>();
    const forms: Form[] = [];
    const marker = options.marker ?? secretMarker;
    for (const { provider, value } of secrets) {
      if (value.length < MIN_SECRET_CHARS) continue;
      for (const text of secretForms(value)) {
        if (seen.has(text)) continue;
        seen.add(text);
        forms.push({ text, marker: marker(provider), provider });
      }
    }
    this.forms = forms.sort((a, b) => b.text.length - a.text.length);
    if (forms.length > 0) for (const char of ESCAPE_CHARACTERS + forms.map((form) => form.text).join('')) this.keyish.add(char.charCodeAt(0));
  }

  /** Whether there is anything to redact. */
  get active(): boolean {
    return this.forms.length > 0;
  }

  /** Where the text holds a key, in any reading of it. */
  private ranges(text: string): Range[] {
    const found: Range[] = [];
    if (!this.active) return found;
    for (const view of viewsOf(text, true)) {
      for (const form of this.forms) {
        for (let at = view.text.indexOf(form.text); at !== -1; at = view.text.indexOf(form.text, at + 1)) {
          found.push({ start: sourceStart(view, at), end: sourceEnd(view, at + form.text.length - 1), marker: form.marker });
        }
      }
    }
    return found;
  }

  text(text: string): string {
    return this.active ? replaced(text, merged(this.ranges(text))) : text;
  }

  /**
   * A text that was cut off where it ends (a stream that stopped, a reply that ran out of
   * tokens): redacted, and a tail that is the start of a key — at least MIN_SECRET_CHARS of one
   * of its forms, in any reading, an escape cut in half included — replaced as a key too.
   */
  endedText(text: string): string {
    if (!this.active) return text;
    const ranges = this.ranges(text);
    const cut = this.cutKey(text);
    if (cut) ranges.push({ start: cut.start, end: text.length, marker: cut.marker });
    return replaced(text, merged(ranges));
  }

  /** Where a key cut short by the end of `text` begins (the earliest, in any reading), or null. */
  private cutKey(text: string): { start: number; marker: string } | null {
    let earliest: { start: number; marker: string } | null = null;
    for (const view of viewsOf(text, true)) {
      // An escape cut in half at the end (`\u00`, `%7`) is part of the key it began.
      const found = this.keyStartingAtEnd(view.text.replace(CUT_ESCAPE_AT_END, ''));
      if (found === null) continue;
      const start = sourceStart(view, found.at);
      if (earliest === null || start < earliest.start) earliest = { start, marker: found.marker };
    }
    return earliest;
  }

  /** The longest tail of `text` that begins some form (MIN_SECRET_CHARS or more of it), or null. */
  private keyStartingAtEnd(text: string): { at: number; marker: string } | null {
    let best: { at: number; marker: string } | null = null;
    const last = text.length - MIN_SECRET_CHARS;
    for (const form of this.forms) {
      for (let at = Math.max(0, text.length - form.text.length + 1); at <= last && (best === null || at < best.at); at++) {
        if (text.charCodeAt(at) === form.text.charCodeAt(0) && form.text.startsWith(text.slice(at))) {
          best = { at, marker: form.marker };
          break;
        }
      }
    }
    return best;
  }

  /** Whether `code` could be part of a key in some form (stream redaction holds such a tail). */
  isKeyish(code: number): boolean {
    return this.keyish.has(code);
  }

  /** A JSON-shaped value with every string redacted: the same object when nothing changed. */
  value<T>(value: T): T {
    if (!this.active) return value;
    return this.walk(value, 0) as T;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth > WALK_DEPTH) return this.deepValue(value);
    if (Array.isArray(value)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const item = this.walk(value[i], depth + 1);
        if (item !== value[i]) (out ??= value.slice())[i] = item;
      }
      return out ?? value;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    let out: Record<string, unknown> | null = null;
    for (const [key, item] of Object.entries(value)) {
      const redacted = this.walk(item, depth + 1);
      const safeKey = this.text(key);
      if (redacted !== item || safeKey !== key) {
        out ??= { ...(value as Record<string, unknown>) };
        if (safeKey !== key) delete out[key];
        // Never `out[key] = …`: a key "__proto__" would set the prototype and keep the old value.
        Object.defineProperty(out, safeKey, { value: redacted, enumerable: true, writable: true, configurable: true });
      }
    }
    return out ?? value;
  }

  /** A value nested past the walk's depth, redacted as its JSON text. */
  private deepValue(value: object): unknown {
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      return '[nested too deep to check for API keys: left out]';
    }
    if (json === undefined) return value;
    const safe = this.text(json);
    return safe === json ? value : (JSON.parse(safe) as unknown);
  }

  /** The providers whose key is somewhere in `text`, in any form and any reading of it. */
  keysIn(text: string): string[] {
    if (!this.active) return [];
    const views = viewsOf(text, false);
    return [...new Set(this.forms.filter((form) => views.some((view) => view.text.includes(form.text))).map((form) => form.provider))];
  }
}

/**
 * One stream of text pieces (a call's content or reasoning deltas), redacted across pieces: what
 * comes out ends at a character no form of a key (nor an escape of one) is made of, so no key can
 * straddle it; the run of characters after it waits for the next piece. At the end, a tail that
 * begins a key is replaced as one (`endedText`): a stream cut off inside a key lets none of it out.
 */
export class StreamRedactor {
  private held = '';

  constructor(private readonly redactor: Redactor) {}

  push(piece: string): string {
    let at = piece.length - 1;
    while (at >= 0 && this.redactor.isKeyish(piece.charCodeAt(at))) at--;
    if (at < 0) {
      this.held += piece;
      return '';
    }
    const ready = this.held + piece.slice(0, at + 1);
    this.held = piece.slice(at + 1);
    return this.redactor.text(ready);
  }

  /** What is still held back, redacted as the end of a text. */
  end(): string {
    const rest = this.held;
    this.held = '';
    return this.redactor.endedText(rest);
  }
}
