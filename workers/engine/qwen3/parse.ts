// Reads what a Qwen3-family model really writes: `<think>` reasoning, `<tool_call>` blocks with
// a JSON object each, a `<message>` for the user, and all the ways small models get these wrong.
// It never throws and runs in linear time: every search moves forward through the text.

import type { RejectedCall } from '../events.ts';

export interface TextCall {
  name: string;
  arguments: Record<string, unknown>;
  origin: 'text' | 'think';
}

export interface ParsedModelOutput {
  /** Text inside `<think>…</think>` (joined if several), trimmed. */
  reasoning: string;
  /** The content of `<message>…</message>` if present, else the text outside think and
   * tool_call blocks, trimmed. */
  message: string;
  calls: TextCall[];
  /** Every call block that was seen but could not be accepted, with a plain reason. */
  rejected: RejectedCall[];
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const CALL_OPEN = '<tool_call>';
const CALL_CLOSE = '</tool_call>';
const MESSAGE_OPEN = '<message>';
const MESSAGE_CLOSE = '</message>';
const RAW_LIMIT = 500;
const ERROR_LIMIT = 160;
const STRAY_IN_TEXT = /<\/think>|<\/tool_call>/g;
const STRAY_IN_THINK = /<think>|<\/tool_call>/g;

/** Finds a tag at or after a position. Remembers its last answer so that forward-moving
 * queries cost one pass over the text in all. */
function tagFinder(text: string, tag: string): (from: number) => number {
  let searchedFrom = Number.POSITIVE_INFINITY;
  let found = -1;
  return (from) => {
    if (from >= searchedFrom && (found === -1 || found >= from)) return found;
    searchedFrom = from;
    found = text.indexOf(tag, from);
    return found;
  };
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9 || code === 12 || code === 11;
}

function skipWhitespace(text: string, from: number, limit: number): number {
  let index = from;
  while (index < limit && isWhitespace(text.charCodeAt(index))) index++;
  return index;
}

/** Skips whitespace and a Markdown code fence line (```json), which some models wrap calls in. */
function skipWhitespaceAndFence(text: string, from: number, limit: number): number {
  let index = skipWhitespace(text, from, limit);
  if (text.startsWith('```', index)) {
    const lineEnd = text.indexOf('\n', index);
    index = skipWhitespace(text, lineEnd < 0 || lineEnd >= limit ? limit : lineEnd + 1, limit);
  }
  return index;
}

function withoutClosingFence(body: string): string {
  let end = body.trimEnd().length;
  while (end > 0 && body.charCodeAt(end - 1) === 96) end--;
  return body.slice(0, end).trimEnd();
}

/** End (exclusive) of the JSON object starting at `start`, counting braces outside strings;
 * -1 when it does not close before `limit`. */
function findObjectEnd(text: string, start: number, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < limit; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 92) index++;
      else if (code === 34) inString = false;
    } else if (code === 34) {
      inString = true;
    } else if (code === 123) {
      depth++;
    } else if (code === 125) {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = /[\ud800-\udbff]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return `${text.slice(0, cut)}…`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

type JsonResult = { ok: true; value: unknown } | { ok: false; error: string };

function parseJson(text: string): JsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: shorten(error instanceof Error ? error.message : String(error), ERROR_LIMIT) };
  }
}

type Interpreted = { ok: true; name: string; arguments: Record<string, unknown> } | { ok: false; reason: string };

/** `arguments` as an object, also when it came as a JSON string that encodes one. */
function readArguments(value: unknown): Record<string, unknown> | string {
  if (isPlainObject(value)) return value;
  if (typeof value === 'string') {
    const decoded = parseJson(value);
    if (decoded.ok && isPlainObject(decoded.value)) return decoded.value;
    return 'arguments must be a JSON object; found a string that does not encode one';
  }
  return `arguments must be a JSON object; found ${describe(value)}`;
}

function notACallReason(parsed: JsonResult): string {
  return parsed.ok
    ? `a call must be a JSON object with the keys name and arguments; found ${describe(parsed.value)}`
    : `invalid JSON: ${parsed.error}`;
}

function interpretCallJson(json: string): Interpreted {
  const parsed = parseJson(json);
  if (!parsed.ok || !isPlainObject(parsed.value)) return { ok: false, reason: notACallReason(parsed) };
  const value = parsed.value;
  const keys = Object.keys(value);
  if (keys.length !== 2 || !Object.hasOwn(value, 'name') || !Object.hasOwn(value, 'arguments')) {
    const found = keys.length === 0 ? 'no keys' : shorten(keys.map((key) => JSON.stringify(key)).join(', '), ERROR_LIMIT);
    return { ok: false, reason: `a call must have exactly the keys name and arguments; found ${found}` };
  }
  const name = value['name'];
  if (typeof name !== 'string') return { ok: false, reason: `the name must be a string; found ${describe(name)}` };
  if (name.trim() === '') return { ok: false, reason: 'the name is empty' };
  const args = readArguments(value['arguments']);
  if (typeof args === 'string') return { ok: false, reason: args };
  return { ok: true, name, arguments: args };
}

type Found =
  | { kind: 'call'; raw: string; name: string; arguments: Record<string, unknown>; origin: 'text' | 'think' }
  | { kind: 'rejected'; raw: string; reason: string; origin: 'text' | 'think' };

interface Scanner {
  text: string;
  nextCallOpen: (from: number) => number;
  nextCallClose: (from: number) => number;
  found: Found[];
}

/** Reads one `<tool_call>` block whose tag ends at `bodyStart`; `limit` is where the next block
 * or the segment begins. Returns where ordinary text resumes. */
function readCallBlock(scanner: Scanner, tagStart: number, bodyStart: number, limit: number, origin: 'text' | 'think'): number {
  const { text, found } = scanner;
  const close = scanner.nextCallClose(bodyStart);
  const closed = close >= 0 && close < limit;
  const bodyEnd = closed ? close : limit;
  const after = closed ? close + CALL_CLOSE.length : limit;
  const reject = (raw: string, reason: string): void => {
    found.push({ kind: 'rejected', raw: shorten(raw, RAW_LIMIT), reason, origin });
  };

  let position = skipWhitespaceAndFence(text, bodyStart, bodyEnd);
  if (position >= bodyEnd) {
    if (closed) reject(text.slice(tagStart, after), 'the <tool_call> block is empty');
    else if (limit < text.length && text.startsWith(CALL_OPEN, limit)) return limit; // a repeated tag
    else reject(text.slice(tagStart, after), 'the output ends right after <tool_call>');
    return after;
  }
  if (text.charCodeAt(position) !== 123) {
    reject(text.slice(tagStart, after), notACallReason(parseJson(withoutClosingFence(text.slice(position, bodyEnd)))));
    return after;
  }
  for (;;) {
    const objectEnd = findObjectEnd(text, position, bodyEnd);
    if (objectEnd < 0) {
      if (closed) {
        reject(text.slice(tagStart, after), notACallReason(parseJson(withoutClosingFence(text.slice(position, bodyEnd)))));
      } else {
        reject(text.slice(tagStart, after), 'the call is cut off: its JSON object never closes');
      }
      return after;
    }
    const json = text.slice(position, objectEnd);
    const interpreted = interpretCallJson(json);
    if (interpreted.ok) found.push({ kind: 'call', raw: json, name: interpreted.name, arguments: interpreted.arguments, origin });
    else reject(json, interpreted.reason);
    position = skipWhitespaceAndFence(text, objectEnd, bodyEnd);
    if (position >= bodyEnd || text.charCodeAt(position) !== 123) return closed ? after : objectEnd;
  }
}

/** Splits one think or text segment into its plain text and its call blocks. */
function scanSegment(scanner: Scanner, start: number, end: number, origin: 'text' | 'think', textOut: string[]): void {
  let position = start;
  while (position < end) {
    const open = scanner.nextCallOpen(position);
    if (open < 0 || open >= end) {
      textOut.push(scanner.text.slice(position, end));
      return;
    }
    textOut.push(scanner.text.slice(position, open));
    const bodyStart = open + CALL_OPEN.length;
    const nextOpen = scanner.nextCallOpen(bodyStart);
    const limit = nextOpen >= 0 && nextOpen < end ? nextOpen : end;
    position = readCallBlock(scanner, open, bodyStart, limit, origin);
  }
}

function extractMessages(text: string): string | undefined {
  const parts: string[] = [];
  let position = 0;
  for (;;) {
    const open = text.indexOf(MESSAGE_OPEN, position);
    if (open < 0) break;
    const bodyStart = open + MESSAGE_OPEN.length;
    const close = text.indexOf(MESSAGE_CLOSE, bodyStart);
    const bodyEnd = close < 0 ? text.length : close;
    parts.push(text.slice(bodyStart, bodyEnd).trim());
    position = close < 0 ? text.length : close + MESSAGE_CLOSE.length;
  }
  return parts.length === 0 ? undefined : parts.filter((part) => part !== '').join('\n\n');
}

/** Parses a model's raw output into reasoning, the message for the user, and tool calls.
 * A call written inside `<think>` counts (origin `think`) only when no valid call stands
 * outside the reasoning; otherwise it is rejected. */
export function parseModelOutput(raw: string): ParsedModelOutput {
  const text = typeof raw === 'string' ? raw : String(raw);
  const nextThinkOpen = tagFinder(text, THINK_OPEN);
  const nextThinkClose = tagFinder(text, THINK_CLOSE);
  const scanner: Scanner = {
    text,
    nextCallOpen: tagFinder(text, CALL_OPEN),
    nextCallClose: tagFinder(text, CALL_CLOSE),
    found: [],
  };
  const thinkPieces: string[][] = [];
  const outsideText: string[] = [];
  const readThink = (start: number, end: number): void => {
    const pieces: string[] = [];
    scanSegment(scanner, start, end, 'think', pieces);
    thinkPieces.push(pieces);
  };

  let position = 0;
  const firstClose = nextThinkClose(0);
  const firstOpen = nextThinkOpen(0);
  if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) {
    // The prompt opened the think block: everything before the first </think> is reasoning.
    readThink(0, firstClose);
    position = firstClose + THINK_CLOSE.length;
  }
  while (position < text.length) {
    const open = nextThinkOpen(position);
    if (open < 0) {
      scanSegment(scanner, position, text.length, 'text', outsideText);
      break;
    }
    scanSegment(scanner, position, open, 'text', outsideText);
    const bodyStart = open + THINK_OPEN.length;
    const close = nextThinkClose(bodyStart);
    if (close >= 0) {
      readThink(bodyStart, close);
      position = close + THINK_CLOSE.length;
    } else {
      // Unclosed: the reasoning runs to the first call, or to the end.
      const call = scanner.nextCallOpen(bodyStart);
      const end = call < 0 ? text.length : call;
      readThink(bodyStart, end);
      position = end;
    }
  }

  const hasCallOutsideThink = scanner.found.some((item) => item.kind === 'call' && item.origin === 'text');
  const calls: TextCall[] = [];
  const rejected: RejectedCall[] = [];
  for (const item of scanner.found) {
    if (item.kind === 'rejected') {
      rejected.push({ raw: item.raw, reason: item.reason });
    } else if (item.origin === 'think' && hasCallOutsideThink) {
      rejected.push({
        raw: shorten(item.raw, RAW_LIMIT),
        reason: 'this call was written inside <think>, and the output also has calls outside it; only those count',
      });
    } else {
      calls.push({ name: item.name, arguments: item.arguments, origin: item.origin });
    }
  }

  const reasoning = thinkPieces
    .map((pieces) => pieces.join('').replace(STRAY_IN_THINK, '').trim())
    .filter((piece) => piece !== '')
    .join('\n\n');
  const visibleText = outsideText.join('').replace(STRAY_IN_TEXT, '');
  const message = extractMessages(visibleText) ?? visibleText.trim();
  return { reasoning, message, calls, rejected };
}

/** Checks calls a server already parsed (OpenAI `tool_calls`), whose arguments arrive as a
 * JSON string. An empty string means no arguments. */
export function parseServerToolCalls(toolCalls: Array<{ id: string; name: string; arguments: string }>): {
  calls: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  rejected: RejectedCall[];
} {
  const calls: Array<{ id: string; name: string; arguments: Record<string, unknown> }> = [];
  const rejected: RejectedCall[] = [];
  for (const call of toolCalls) {
    const reject = (reason: string): void => {
      rejected.push({ raw: shorten(JSON.stringify(call), RAW_LIMIT), reason });
    };
    const name = typeof call.name === 'string' ? call.name : '';
    if (name.trim() === '') {
      reject('the call has no tool name');
      continue;
    }
    const argumentText = typeof call.arguments === 'string' ? call.arguments : '';
    if (argumentText.trim() === '') {
      calls.push({ id: call.id, name, arguments: {} });
      continue;
    }
    const parsed = parseJson(argumentText);
    if (!parsed.ok) {
      reject(`the arguments are not valid JSON: ${parsed.error}`);
      continue;
    }
    const args = readArguments(parsed.value);
    if (typeof args === 'string') reject(args);
    else calls.push({ id: call.id, name, arguments: args });
  }
  return { calls, rejected };
}
