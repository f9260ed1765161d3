// Keys never leave in data. A run knows the keys its host holds (the worker's key ring, the CLI's
// environment); any text of the run that could be kept or shown — every event, the completion a
// protocol reads on — has each key replaced by a marker naming its provider, in every form a
// server might echo it in: as is, base64 (at any alignment inside longer base64, either
// alphabet), URL-encoded, JSON-escaped. A stream is redacted across its pieces: the tail of a
// piece that could begin a key waits for the next piece (StreamRedactor). Before a file is
// written, `keysIn` scans its text once more.

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

interface Form {
  text: string;
  marker: string;
  provider: string;
}

/** Why a file was not written: it still holds the keys of these providers (found by the last scan
 * before writing, `keysIn`): the CLI's --save, the page's exports. */
export function keysLeftProblem(providers: readonly string[]): string {
  const named = providers.map((provider) => `"${provider}"`).join(', ');
  return `it holds the API key of ${named}, and a file never carries a key. The run that holds it was recorded before keys were removed from runs, or imported: leave it out.`;
}

/** Replaces held keys in text and in JSON-shaped values. */
export class Redactor {
  private readonly forms: Form[];

  constructor(secrets: readonly Secret[]) {
    const seen = new Set<string>();
    const forms: Form[] = [];
    for (const { provider, value } of secrets) {
      if (value.length < MIN_SECRET_CHARS) continue;
      for (const text of secretForms(value)) {
        if (seen.has(text)) continue;
        seen.add(text);
        forms.push({ text, marker: secretMarker(provider), provider });
      }
    }
    this.forms = forms.sort((a, b) => b.text.length - a.text.length);
  }

  /** Whether there is anything to redact. */
  get active(): boolean {
    return this.forms.length > 0;
  }

  text(text: string): string {
    let out = text;
    for (const form of this.forms) if (out.includes(form.text)) out = out.split(form.text).join(form.marker);
    return out;
  }

  /** A JSON-shaped value with every string redacted: the same object when nothing changed. */
  value<T>(value: T): T {
    if (!this.active) return value;
    return this.walk(value, 0) as T;
  }

  private walk(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.text(value);
    // Events are plain data, shallow by construction (a tool's detail is cut at 8 levels).
    if (typeof value !== 'object' || value === null || depth > 64) return value;
    if (Array.isArray(value)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const item = this.walk(value[i], depth + 1);
        if (item !== value[i]) (out ??= value.slice())[i] = item;
      }
      return out ?? value;
    }
    if (Object.getPrototypeOf(value) !== Object.prototype) return value;
    let out: Record<string, unknown> | null = null;
    for (const [key, item] of Object.entries(value)) {
      const redacted = this.walk(item, depth + 1);
      const safeKey = this.text(key);
      if (redacted !== item || safeKey !== key) {
        out ??= { ...(value as Record<string, unknown>) };
        if (safeKey !== key) delete out[key];
        out[safeKey] = redacted;
      }
    }
    return out ?? value;
  }

  /** How many characters at the end of `text` could begin a key: a stream holds them back. */
  pendingTail(text: string): number {
    let longest = 0;
    for (const { text: form } of this.forms) {
      const from = Math.max(0, text.length - form.length + 1);
      for (let at = from; at < text.length; at++) {
        if (text.length - at <= longest) break;
        if (text.charCodeAt(at) === form.charCodeAt(0) && form.startsWith(text.slice(at))) {
          longest = text.length - at;
          break;
        }
      }
    }
    return longest;
  }

  /** The providers whose key is somewhere in `text`, in any form. */
  keysIn(text: string): string[] {
    return [...new Set(this.forms.filter((form) => text.includes(form.text)).map((form) => form.provider))];
  }
}

/**
 * One stream of text pieces (a call's content or reasoning deltas), redacted across pieces: each
 * piece comes out with whole keys replaced and without the tail that could still become one,
 * which comes out with the next piece, or at `end`.
 */
export class StreamRedactor {
  private held = '';

  constructor(private readonly redactor: Redactor) {}

  push(piece: string): string {
    const text = this.redactor.text(this.held + piece);
    const keep = this.redactor.pendingTail(text);
    this.held = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  /** What is still held back: it never became a key. */
  end(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}
