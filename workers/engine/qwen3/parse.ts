// Reads what a Qwen3-family model really writes: `<think>` reasoning, `<tool_call>` blocks with
// a JSON object each, a `<message>` for the user, and all the ways small models get these wrong.
// It never throws and runs in linear time: every search moves forward through the text.

import type { RejectedCall } from '../events.ts';
import { nestingPast } from '../jsonDepth.ts';
import { MAX_REPLY_NESTING } from '../callLimits.ts';

export interface TextCall {
  name: string;
  arguments: Record<string, unknown>;
  origin: 'text' | 'think';
  /** The call's JSON text, when asked for (`keepRaw`). */
  raw?: string;
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
const STRAY_IN_TEXT = /<\/tool_call>/g;
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
  if (!text.startsWith('```', index)) return index;
  while (index < limit && text.charCodeAt(index) !== 10) index++;
  return skipWhitespace(text, index, limit);
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

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** `deep`: refused for its nesting, not its syntax (`error` then says so in full). */
type JsonResult = { ok: true; value: unknown } | { ok: false; error: string; deep?: true };

const JSON_VALUE_START = /^\s*[[{"\-0-9tfn]/;

function parseJson(text: string): JsonResult {
  // Prose is common in broken blocks; spare the exception, which costs far more than the check.
  if (!JSON_VALUE_START.test(text)) return { ok: false, error: 'this is not JSON at all' };
  // Read no deeper than a run file may nest: the call's event could not be sent to the page.
  if (nestingPast(text, MAX_REPLY_NESTING) !== -1) {
    return { ok: false, deep: true, error: `the call nests more than ${MAX_REPLY_NESTING} arrays and objects deep, more than the playground reads` };
  }
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
    if (!decoded.ok && decoded.deep) return decoded.error;
    return 'arguments must be a JSON object; found a string that does not encode one';
  }
  return `arguments must be a JSON object; found ${kindOf(value)}`;
}

function notACallReason(parsed: JsonResult): string {
  if (parsed.ok) return `a call must be a JSON object with the keys name and arguments; found ${kindOf(parsed.value)}`;
  return parsed.deep ? parsed.error : `invalid JSON: ${parsed.error}`;
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
  if (typeof name !== 'string') return { ok: false, reason: `the name must be a string; found ${kindOf(name)}` };
  if (name.trim() === '') return { ok: false, reason: 'the name is empty' };
  const args = readArguments(value['arguments']);
  if (typeof args === 'string') return { ok: false, reason: args };
  return { ok: true, name, arguments: args };
}

type Origin = 'text' | 'think';

type Found =
  | { kind: 'call'; raw: string; name: string; arguments: Record<string, unknown>; origin: Origin }
  | { kind: 'rejected'; raw: string; reason: string; origin: Origin };

interface Scanner {
  text: string;
  nextCallOpen: (from: number) => number;
  nextCallClose: (from: number) => number;
  found: Found[];
}

/** Reads the `<tool_call>` block at `tagStart`, JSON-aware, so tags inside JSON strings do not
 * count. Its JSON may run up to the next `<tool_call>`. Returns where ordinary text resumes. */
function readCallBlock(scanner: Scanner, tagStart: number, origin: Origin): number {
  const { text, found } = scanner;
  const bodyStart = tagStart + CALL_OPEN.length;
  const nextOpen = scanner.nextCallOpen(bodyStart);
  const limit = nextOpen < 0 ? text.length : nextOpen;
  const reject = (from: number, to: number, reason: string): void => {
    found.push({ kind: 'rejected', raw: shorten(text.slice(from, to), RAW_LIMIT), reason, origin });
  };
  /** Where the block's closing tag is, if it has one before the next block. */
  const closeAfter = (from: number): number => {
    const close = scanner.nextCallClose(from);
    return close >= 0 && close < limit ? close : -1;
  };

  let position = skipWhitespaceAndFence(text, bodyStart, limit);
  if (position >= limit) {
    if (nextOpen >= 0) return limit; // a repeated <tool_call> tag
    reject(tagStart, limit, 'the output ends right after <tool_call>');
    return limit;
  }
  if (text.startsWith(CALL_CLOSE, position)) {
    reject(tagStart, position + CALL_CLOSE.length, 'the <tool_call> block is empty');
    return position + CALL_CLOSE.length;
  }
  if (text.charCodeAt(position) !== 123) {
    const close = closeAfter(position);
    const bodyEnd = close < 0 ? limit : close;
    const after = close < 0 ? limit : close + CALL_CLOSE.length;
    reject(tagStart, after, notACallReason(parseJson(withoutClosingFence(text.slice(position, bodyEnd)))));
    return after;
  }
  for (;;) {
    const objectEnd = findObjectEnd(text, position, limit);
    if (objectEnd < 0) {
      const close = closeAfter(position);
      if (close < 0) {
        reject(tagStart, limit, 'the call is cut off: its JSON object never closes');
        return limit;
      }
      reject(tagStart, close + CALL_CLOSE.length, notACallReason(parseJson(withoutClosingFence(text.slice(position, close)))));
      return close + CALL_CLOSE.length;
    }
    const json = text.slice(position, objectEnd);
    const interpreted = interpretCallJson(json);
    if (interpreted.ok) found.push({ kind: 'call', raw: json, name: interpreted.name, arguments: interpreted.arguments, origin });
    else found.push({ kind: 'rejected', raw: shorten(json, RAW_LIMIT), reason: interpreted.reason, origin });
    position = skipWhitespaceAndFence(text, objectEnd, limit);
    // Some models put several objects in one block.
    if (text.charCodeAt(position) === 123 && position < limit) continue;
    // Anything between the object and its closing tag is noise; without a closing tag the
    // block ends with the object and what follows is ordinary text.
    const close = closeAfter(objectEnd);
    return close < 0 ? objectEnd : close + CALL_CLOSE.length;
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

function firstOf(...positions: number[]): number {
  let first = -1;
  for (const position of positions) if (position >= 0 && (first < 0 || position < first)) first = position;
  return first;
}

/** Walks the text once: the pieces inside <think> blocks, the pieces outside them, and each call
 * block met on the way (in `scanner.found`). */
function scanThinkAndCalls(scanner: Scanner): { thinkBlocks: string[][]; outsideText: string[] } {
  const { text } = scanner;
  const nextThinkOpen = tagFinder(text, THINK_OPEN);
  const nextThinkClose = tagFinder(text, THINK_CLOSE);
  const thinkBlocks: string[][] = [];
  let outsideText: string[] = [];
  let thinkSeen = false;
  let inThink = false;
  let position = 0;

  while (position < text.length) {
    const call = scanner.nextCallOpen(position);
    const close = nextThinkClose(position);
    if (inThink) {
      const block = thinkBlocks[thinkBlocks.length - 1] as string[];
      if (call >= 0 && (close < 0 || call < close)) {
        block.push(text.slice(position, call));
        if (close < 0) {
          inThink = false; // never closed: the reasoning ends at the first call
          position = call;
        } else {
          position = readCallBlock(scanner, call, 'think');
        }
      } else if (close >= 0) {
        block.push(text.slice(position, close));
        inThink = false;
        position = close + THINK_CLOSE.length;
      } else {
        block.push(text.slice(position));
        break;
      }
      continue;
    }
    const open = nextThinkOpen(position);
    const next = firstOf(call, open, close);
    if (next < 0) {
      outsideText.push(text.slice(position));
      break;
    }
    outsideText.push(text.slice(position, next));
    if (next === call) {
      position = readCallBlock(scanner, call, 'text');
    } else if (next === open) {
      thinkBlocks.push([]);
      thinkSeen = inThink = true;
      position = open + THINK_OPEN.length;
    } else {
      if (!thinkSeen) {
        // The prompt opened the think block: all so far was reasoning.
        thinkBlocks.push(outsideText);
        outsideText = [];
        for (const item of scanner.found) item.origin = 'think';
        thinkSeen = true;
      }
      position = close + THINK_CLOSE.length;
    }
  }
  return { thinkBlocks, outsideText };
}

/** The calls that count, and those refused with why: a call inside <think> counts only when the
 * output has none outside it. */
function sortCalls(found: Scanner['found'], keepRaw: boolean): { calls: TextCall[]; rejected: RejectedCall[] } {
  const hasCallOutsideThink = found.some((item) => item.kind === 'call' && item.origin === 'text');
  const calls: TextCall[] = [];
  const rejected: RejectedCall[] = [];
  for (const item of found) {
    if (item.kind === 'rejected') {
      rejected.push({ raw: item.raw, reason: item.reason });
    } else if (item.origin === 'think' && hasCallOutsideThink) {
      rejected.push({
        raw: shorten(item.raw, RAW_LIMIT),
        reason: 'this call was written inside <think>, and the output also has calls outside it; only those count',
      });
    } else {
      calls.push({ name: item.name, arguments: item.arguments, origin: item.origin, ...(keepRaw ? { raw: item.raw } : {}) });
    }
  }
  return { calls, rejected };
}

/** Parses a model's raw output into reasoning, the message for the user, and tool calls, in one
 * pass from left to right:
 * - `<think>` without `</think>`: the reasoning runs to the first `<tool_call>`, or to the end;
 * - `</think>` with no `<think>` before it (the prompt opened the block): everything before it
 *   is reasoning, calls included; later stray `</think>` tags are dropped;
 * - a call inside `<think>` counts (origin `think`) only when no valid call stands outside the
 *   reasoning; otherwise it is rejected;
 * - a `<tool_call>` without `</tool_call>` takes the JSON object that follows it.
 * Limitation: a literal `<tool_call>` inside a call's JSON string ends that call. */
export function parseModelOutput(raw: string, options: { keepRaw?: boolean } = {}): ParsedModelOutput {
  const text = typeof raw === 'string' ? raw : String(raw);
  const scanner: Scanner = {
    text,
    nextCallOpen: tagFinder(text, CALL_OPEN),
    nextCallClose: tagFinder(text, CALL_CLOSE),
    found: [],
  };
  const { thinkBlocks, outsideText } = scanThinkAndCalls(scanner);
  const { calls, rejected } = sortCalls(scanner.found, options.keepRaw === true);
  const reasoning = thinkBlocks
    .map((pieces) => pieces.join('').replace(STRAY_IN_THINK, '').trim())
    .filter((piece) => piece !== '')
    .join('\n\n');
  const visibleText = outsideText.join('').replace(STRAY_IN_TEXT, '');
  const message = extractMessages(visibleText) ?? visibleText.trim();
  return { reasoning, message, calls, rejected };
}

/** Checks calls a server already parsed (OpenAI `tool_calls`), whose arguments arrive as a
 * JSON string. An empty string means no arguments; a string that encodes a JSON string holding
 * an object is accepted too. */
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
    const value: unknown = call.arguments;
    if (typeof value === 'string' && value.trim() === '') {
      calls.push({ id: call.id, name, arguments: {} });
      continue;
    }
    const parsed: JsonResult = typeof value === 'string' ? parseJson(value) : { ok: true, value };
    if (!parsed.ok) {
      reject(parsed.deep ? parsed.error : `the arguments are not valid JSON: ${parsed.error}`);
      continue;
    }
    const args = readArguments(parsed.value);
    if (typeof args === 'string') reject(args);
    else calls.push({ id: call.id, name, arguments: args });
  }
  return { calls, rejected };
}
