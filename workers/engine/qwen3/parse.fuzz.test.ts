import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseModelOutput, parseServerToolCalls } from './parse.ts';
import type { ParsedModelOutput } from './parse.ts';
import { formatToolCall } from './render.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Checks the documented shape; returns a description of the first problem, or '' when fine. */
function shapeProblem(parsed: ParsedModelOutput): string {
  const keys = Object.keys(parsed).sort().join(',');
  if (keys !== 'calls,message,reasoning,rejected') return `keys: ${keys}`;
  if (typeof parsed.reasoning !== 'string' || parsed.reasoning !== parsed.reasoning.trim()) return 'reasoning not a trimmed string';
  if (typeof parsed.message !== 'string' || parsed.message !== parsed.message.trim()) return 'message not a trimmed string';
  if (!Array.isArray(parsed.calls) || !Array.isArray(parsed.rejected)) return 'calls or rejected not arrays';
  for (const call of parsed.calls) {
    if (Object.keys(call).sort().join(',') !== 'arguments,name,origin') return `call keys: ${Object.keys(call).join(',')}`;
    if (typeof call.name !== 'string' || call.name.trim() === '') return 'call without a name';
    if (!isPlainObject(call.arguments)) return 'call arguments not an object';
    if (call.origin !== 'text' && call.origin !== 'think') return `origin ${String(call.origin)}`;
  }
  // Think calls count only when there is no call outside, so origins never mix.
  if (new Set(parsed.calls.map((call) => call.origin)).size > 1) return 'mixed origins';
  for (const rejection of parsed.rejected) {
    if (Object.keys(rejection).sort().join(',') !== 'raw,reason') return 'rejection keys';
    if (typeof rejection.raw !== 'string' || rejection.raw.length > 501) return 'rejection raw too long';
    if (typeof rejection.reason !== 'string' || rejection.reason === '') return 'rejection without a reason';
  }
  return '';
}

const TAGS = ['<think>', '</think>', '<tool_call>', '</tool_call>', '<message>', '</message>'];
const tagSoup = fc
  .array(
    fc.oneof(
      fc.constantFrom(...TAGS, '{', '}', '[', ']', '"', '\\', ':', ',', '"name"', '"arguments"', '```', ' ', '\n', 'é', '😀'),
      fc.constantFrom('{"name": "a", "arguments": {}}', '{"name": "b", "arguments": "{}"}', '"x"', '1', 'null'),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

/** Text a model might write around calls: no tags, but braces, quotes and unicode. */
const plainText = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', 'é', '😀', '.', '{', '}', '"', '\\', '<', '>', '`'), maxLength: 20 });

/** Strings inside arguments may hold anything but a literal `<tool_call>` (a documented limit). */
const argumentString = fc.string({
  unit: fc.oneof(
    fc.constantFrom('</tool_call>', '<think>', '</think>', '<message>', '{', '}', '"', '\\', '```', '\n', '\u2028'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});
const callName = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 16 })
  .filter((name) => name.trim() !== '' && !name.includes('<tool_call>'));
const callArbitrary = fc.record({
  name: callName,
  arguments: fc.dictionary(argumentString, fc.jsonValue({ maxDepth: 3, stringUnit: argumentString.map((s) => s || 'x') }), {
    maxKeys: 4,
  }),
});
type Call = { name: string; arguments: Record<string, unknown> };

/** JSON turns -0 into 0; the expectation goes through JSON too. */
const normalized = (call: Call): Call => ({ name: call.name, arguments: JSON.parse(JSON.stringify(call.arguments)) as Record<string, unknown> });

const validOutput = fc.record({
  reasoning: fc.option(plainText, { nil: undefined }),
  calls: fc.array(callArbitrary, { minLength: 1, maxLength: 4 }),
  texts: fc.array(plainText, { minLength: 5, maxLength: 5 }),
});
type Output = { reasoning: string | undefined; calls: Call[]; texts: string[] };
/** Text before each call, and after the last. */
const textsUsed = (output: Output): string[] => [...output.texts.slice(0, output.calls.length), output.texts[4] ?? ''];
function assemble(output: Output): string {
  const parts = output.reasoning === undefined ? [] : [`<think>\n${output.reasoning}\n</think>\n\n`];
  output.calls.forEach((call, index) => parts.push(output.texts[index] ?? '', formatToolCall(call)));
  parts.push(output.texts[4] ?? '');
  return parts.join('');
}

describe('parseModelOutput never throws and keeps its shape', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (raw) => {
        expect(shapeProblem(parseModelOutput(raw))).toBe('');
      }),
      { numRuns: 1000 },
    );
  });

  it('on strings built from tags, braces, quotes and text', () => {
    fc.assert(
      fc.property(tagSoup, (raw) => {
        expect(shapeProblem(parseModelOutput(raw))).toBe('');
      }),
      { numRuns: 2000 },
    );
  });

  it('parseServerToolCalls on arbitrary payloads', () => {
    const payload = fc.record({ id: fc.string(), name: fc.string(), arguments: fc.oneof(fc.string(), tagSoup, fc.json()) });
    fc.assert(
      fc.property(fc.array(payload, { maxLength: 5 }), (toolCalls) => {
        const result = parseServerToolCalls(toolCalls);
        expect(result.calls.length + result.rejected.length).toBe(toolCalls.length);
        for (const call of result.calls) {
          expect(call.name.trim()).not.toBe('');
          expect(isPlainObject(call.arguments)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('round trip: formatted calls parse back exactly', () => {
  it('with random text around them and an optional think block', () => {
    fc.assert(
      fc.property(validOutput, (output) => {
        const parsed = parseModelOutput(assemble(output));
        expect(parsed.rejected).toEqual([]);
        expect(parsed.calls).toEqual(output.calls.map((call) => ({ ...normalized(call), origin: 'text' })));
        expect(parsed.message).toBe(textsUsed(output).join('').trim());
        expect(parsed.reasoning).toBe((output.reasoning ?? '').trim());
      }),
      { numRuns: 1000 },
    );
  });

  it('inside a think block when no call stands outside', () => {
    fc.assert(
      fc.property(fc.array(callArbitrary, { minLength: 1, maxLength: 3 }), plainText, (calls, text) => {
        const parsed = parseModelOutput(`<think>${text}${calls.map(formatToolCall).join(text)}</think>\n\n${text}`);
        expect(parsed.calls).toEqual(calls.map((call) => ({ ...normalized(call), origin: 'think' })));
        expect(parsed.rejected).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'duplicate'; at: number; length: number }
  | { kind: 'insert'; at: number; tag: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.nat({ max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), tag: fc.constantFrom(...TAGS, '{', '}', '"', '\\', '```') }),
);

function mutate(text: string, change: Mutation): string {
  const at = text.length === 0 ? 0 : change.at % (text.length + 1);
  switch (change.kind) {
    case 'truncate':
      return text.slice(0, at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + change.length);
    case 'duplicate':
      return text.slice(0, at + change.length) + text.slice(at);
    case 'insert':
      return text.slice(0, at) + change.tag + text.slice(at);
  }
}

describe('mutated outputs', () => {
  it('never throw and only ever return well-formed calls', () => {
    fc.assert(
      fc.property(validOutput, fc.array(mutation, { minLength: 1, maxLength: 4 }), (output, changes) => {
        const raw = changes.reduce(mutate, assemble(output));
        expect(shapeProblem(parseModelOutput(raw))).toBe('');
      }),
      { numRuns: 2000 },
    );
  });

  // Origins are not compared: a cut inside a string holding `</tool_call></think>` can make the
  // parser read that `</think>` as the end of reasoning the prompt opened.
  it('truncated at any point keep the calls that were complete', () => {
    fc.assert(
      fc.property(validOutput, fc.nat(), (output, cut) => {
        const full = assemble(output);
        const at = cut % (full.length + 1);
        const parsed = parseModelOutput(full.slice(0, at));
        expect(shapeProblem(parsed)).toBe('');
        const complete = output.calls.filter((_, index) => {
          const texts = [...output.texts.slice(0, index + 1), '', '', '', ''];
          return assemble({ ...output, calls: output.calls.slice(0, index + 1), texts }).length <= at;
        });
        const found = parsed.calls.slice(0, complete.length).map(({ name, arguments: args }) => ({ name, arguments: args }));
        expect(found).toEqual(complete.map(normalized));
      }),
      { numRuns: 1000 },
    );
  });
});
