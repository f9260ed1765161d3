import { describe, expect, it } from 'vitest';
import { parseModelOutput, parseServerToolCalls } from './parse.ts';

const call = (name: string, args: unknown): string => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

describe('parseModelOutput: the well-formed case', () => {
  it('reads reasoning, message and a call', () => {
    const parsed = parseModelOutput(
      '<think>\nThe user wants a search.\n</think>\n\nLet me look.\n<tool_call>\n{"name": "search", "arguments": {"model": "search-1"}}\n</tool_call>',
    );
    expect(parsed).toEqual({
      reasoning: 'The user wants a search.',
      message: 'Let me look.',
      calls: [{ name: 'search', arguments: { model: 'search-1' }, origin: 'text' }],
      rejected: [],
    });
  });

  it('reads several calls in order, with stray text around them', () => {
    const parsed = parseModelOutput(`First.${call('a', { n: 1 })}\nthen${call('b', { s: 'é😀', deep: { list: [1, null, true] } })} last.`);
    expect(parsed.calls).toEqual([
      { name: 'a', arguments: { n: 1 }, origin: 'text' },
      { name: 'b', arguments: { s: 'é😀', deep: { list: [1, null, true] } }, origin: 'text' },
    ]);
    expect(parsed.message).toBe('First.\nthen last.');
    expect(parsed.rejected).toEqual([]);
  });

  it('prefers the <message> block for the user', () => {
    const parsed = parseModelOutput('<think>plan</think>\nnoise <message>\nIt is 18°C.\n</message> more noise');
    expect(parsed.message).toBe('It is 18°C.');
    expect(parsed.reasoning).toBe('plan');
    expect(parseModelOutput('<message>unterminated reply').message).toBe('unterminated reply');
    expect(parseModelOutput('<message>one</message><message>two</message>').message).toBe('one\n\ntwo');
  });

  it('accepts several JSON objects in one block and a Markdown fence around one', () => {
    expect(parseModelOutput('<tool_call>\n{"name": "a", "arguments": {}}\n{"name": "b", "arguments": {}}\n</tool_call>').calls.map((c) => c.name)).toEqual([
      'a',
      'b',
    ]);
    const fenced = parseModelOutput('<tool_call>\n```json\n{"name": "a", "arguments": {"x": 1}}\n```\n</tool_call>');
    expect(fenced.calls).toEqual([{ name: 'a', arguments: { x: 1 }, origin: 'text' }]);
    expect(fenced.rejected).toEqual([]);
  });
});

describe('parseModelOutput: think blocks', () => {
  it('lets an unclosed <think> run to the first call', () => {
    const parsed = parseModelOutput(`<think>\nI should search${call('search', { model: 'search-2' })}`);
    expect(parsed.reasoning).toBe('I should search');
    expect(parsed.calls).toEqual([{ name: 'search', arguments: { model: 'search-2' }, origin: 'text' }]);
  });

  it('lets an unclosed <think> run to the end', () => {
    expect(parseModelOutput('<think>\nstill thinking when the tokens ran out')).toEqual({
      reasoning: 'still thinking when the tokens ran out',
      message: '',
      calls: [],
      rejected: [],
    });
  });

  it('treats everything before a </think> with no opening as reasoning', () => {
    const parsed = parseModelOutput(`The prompt opened the block.\n</think>\n\nHere you go.${call('answer', { model: 'answer-1' })}`);
    expect(parsed.reasoning).toBe('The prompt opened the block.');
    expect(parsed.message).toBe('Here you go.');
    expect(parsed.calls).toEqual([{ name: 'answer', arguments: { model: 'answer-1' }, origin: 'text' }]);
  });

  it('counts a call written before an unopened </think> as a call inside the reasoning', () => {
    const parsed = parseModelOutput(`maybe ${call('a', {})} hmm</think>\nDone.`);
    expect(parsed.reasoning).toBe('maybe  hmm');
    expect(parsed.message).toBe('Done.');
    expect(parsed.calls).toEqual([{ name: 'a', arguments: {}, origin: 'think' }]);
  });

  it('accepts a call inside <think> when there is none outside', () => {
    const parsed = parseModelOutput(`<think>I will call ${call('search', { model: 'search-3' })} now.</think>`);
    expect(parsed.calls).toEqual([{ name: 'search', arguments: { model: 'search-3' }, origin: 'think' }]);
    expect(parsed.reasoning).toBe('I will call  now.');
    expect(parsed.rejected).toEqual([]);
  });

  it('rejects a call inside <think> when a valid one stands outside', () => {
    const parsed = parseModelOutput(`<think>draft ${call('a', {})}</think>${call('b', {})}`);
    expect(parsed.calls).toEqual([{ name: 'b', arguments: {}, origin: 'text' }]);
    expect(parsed.rejected).toHaveLength(1);
    expect(parsed.rejected[0]?.raw).toBe('{"name":"a","arguments":{}}');
    expect(parsed.rejected[0]?.reason).toMatch(/inside <think>/);
  });

  it('still accepts the think call when the only call outside is invalid', () => {
    const parsed = parseModelOutput(`<think>${call('a', {})}</think><tool_call>{"name": "b"}</tool_call>`);
    expect(parsed.calls).toEqual([{ name: 'a', arguments: {}, origin: 'think' }]);
    expect(parsed.rejected.map((r) => r.reason)).toEqual(['a call must have exactly the keys name and arguments; found "name"']);
  });

  it('joins several think blocks and drops nested or stray think tags', () => {
    expect(parseModelOutput('<think>one</think>text<think>\ntwo\n</think>').reasoning).toBe('one\n\ntwo');
    const nested = parseModelOutput('<think>a<think>b</think>c</think>d');
    expect(nested.reasoning).toBe('ab');
    expect(nested.message).toBe('cd');
    expect(parseModelOutput('<think></think>\n\nhello').reasoning).toBe('');
  });

  it('ignores think tags inside a call\'s JSON strings', () => {
    const parsed = parseModelOutput(`${call('echo', { text: '<think>not reasoning</think> </tool_call>' })} after`);
    expect(parsed.calls).toEqual([{ name: 'echo', arguments: { text: '<think>not reasoning</think> </tool_call>' }, origin: 'text' }]);
    expect(parsed.reasoning).toBe('');
    expect(parsed.message).toBe('after');
  });
});

describe('parseModelOutput: broken calls', () => {
  it('takes the JSON object after a <tool_call> that is never closed', () => {
    const parsed = parseModelOutput('<tool_call>\n{"name": "a", "arguments": {"q": "braces } { and \\" quotes"}}\nSome text after.');
    expect(parsed.calls).toEqual([{ name: 'a', arguments: { q: 'braces } { and " quotes' }, origin: 'text' }]);
    expect(parsed.message).toBe('Some text after.');
  });

  it('rejects a call cut off in the middle of its JSON', () => {
    const parsed = parseModelOutput('Calling.\n<tool_call>\n{"name": "search", "arguments": {"model": "sea');
    expect(parsed.calls).toEqual([]);
    expect(parsed.rejected).toEqual([
      { raw: '<tool_call>\n{"name": "search", "arguments": {"model": "sea', reason: 'the call is cut off: its JSON object never closes' },
    ]);
    expect(parsed.message).toBe('Calling.');
  });

  it('rejects invalid JSON and quotes the error', () => {
    const missingBrace = parseModelOutput('<tool_call>\n{"name": "a", "arguments": {"x": 1}\n</tool_call>ok');
    expect(missingBrace.rejected).toHaveLength(1);
    expect(missingBrace.rejected[0]?.raw).toBe('<tool_call>\n{"name": "a", "arguments": {"x": 1}\n</tool_call>');
    expect(missingBrace.rejected[0]?.reason).toMatch(/^invalid JSON: .*JSON/);
    expect(missingBrace.message).toBe('ok');

    const singleQuotes = parseModelOutput("<tool_call>{'name': 'a', 'arguments': {}}</tool_call>");
    expect(singleQuotes.rejected[0]?.reason).toMatch(/^invalid JSON: /);

    const prose = parseModelOutput('<tool_call>search with search-1</tool_call>');
    expect(prose.rejected[0]?.reason).toMatch(/^invalid JSON: /);
    expect(prose.calls).toEqual([]);
  });

  it('rejects objects without exactly the keys name and arguments', () => {
    const reasons = (raw: string): string[] => parseModelOutput(raw).rejected.map((r) => r.reason);
    expect(reasons('<tool_call>{"name": "a", "arguments": {}, "id": "1"}</tool_call>')).toEqual([
      'a call must have exactly the keys name and arguments; found "name", "arguments", "id"',
    ]);
    expect(reasons('<tool_call>{"name": "a", "parameters": {}}</tool_call>')).toEqual([
      'a call must have exactly the keys name and arguments; found "name", "parameters"',
    ]);
    expect(reasons('<tool_call>{}</tool_call>')).toEqual(['a call must have exactly the keys name and arguments; found no keys']);
    expect(reasons('<tool_call>[{"name": "a", "arguments": {}}]</tool_call>')).toEqual([
      'a call must be a JSON object with the keys name and arguments; found an array',
    ]);
  });

  it('accepts arguments given as a JSON string that encodes an object, and rejects other kinds', () => {
    expect(parseModelOutput('<tool_call>{"name": "a", "arguments": "{\\"x\\": [1]}"}</tool_call>').calls).toEqual([
      { name: 'a', arguments: { x: [1] }, origin: 'text' },
    ]);
    const reason = (args: string): string | undefined =>
      parseModelOutput(`<tool_call>{"name": "a", "arguments": ${args}}</tool_call>`).rejected[0]?.reason;
    expect(reason('"[1, 2]"')).toBe('arguments must be a JSON object; found a string that does not encode one');
    expect(reason('"not json"')).toBe('arguments must be a JSON object; found a string that does not encode one');
    expect(reason('[1]')).toBe('arguments must be a JSON object; found an array');
    expect(reason('null')).toBe('arguments must be a JSON object; found null');
    expect(reason('3')).toBe('arguments must be a JSON object; found a number');
  });

  it('rejects empty or non-string names', () => {
    expect(parseModelOutput('<tool_call>{"name": "", "arguments": {}}</tool_call>').rejected[0]?.reason).toBe('the name is empty');
    expect(parseModelOutput('<tool_call>{"name": "  ", "arguments": {}}</tool_call>').rejected[0]?.reason).toBe('the name is empty');
    expect(parseModelOutput('<tool_call>{"name": 7, "arguments": {}}</tool_call>').rejected[0]?.reason).toBe(
      'the name must be a string; found a number',
    );
  });

  it('handles empty, repeated and stray tags', () => {
    expect(parseModelOutput('<tool_call></tool_call>').rejected).toEqual([
      { raw: '<tool_call></tool_call>', reason: 'the <tool_call> block is empty' },
    ]);
    expect(parseModelOutput('text <tool_call>\n').rejected).toEqual([{ raw: '<tool_call>\n', reason: 'the output ends right after <tool_call>' }]);
    const repeated = parseModelOutput(`<tool_call>\n${call('a', {})}`);
    expect(repeated.calls).toEqual([{ name: 'a', arguments: {}, origin: 'text' }]);
    expect(repeated.rejected).toEqual([]);
    const stray = parseModelOutput(`${call('a', {})}</tool_call></tool_call> bye`);
    expect(stray.calls).toHaveLength(1);
    expect(stray.message).toBe('bye');
  });

  it('ignores junk between the JSON object and its closing tag', () => {
    const parsed = parseModelOutput('<tool_call>{"name": "a", "arguments": {}}}</tool_call> done');
    expect(parsed.calls).toEqual([{ name: 'a', arguments: {}, origin: 'text' }]);
    expect(parsed.message).toBe('done');
  });

  it('ends a call at the next <tool_call> when its JSON never closes', () => {
    const parsed = parseModelOutput(`<tool_call>{"name": "a", "arguments": {"x": "unterminated}}\n${call('b', {})}`);
    expect(parsed.calls).toEqual([{ name: 'b', arguments: {}, origin: 'text' }]);
    expect(parsed.rejected.map((r) => r.reason)).toEqual(['the call is cut off: its JSON object never closes']);
  });

  it('cuts the raw text of a rejection to about 500 characters', () => {
    const parsed = parseModelOutput(`<tool_call>${'garbage '.repeat(20_000)}</tool_call>`);
    expect(parsed.rejected).toHaveLength(1);
    expect(parsed.rejected[0]?.raw.length).toBeLessThanOrEqual(501);
    expect(parsed.rejected[0]?.raw.startsWith('<tool_call>garbage')).toBe(true);
    expect(parsed.rejected[0]?.raw.endsWith('…')).toBe(true);
    expect(parsed.rejected[0]?.reason.length).toBeLessThan(200);
  });
});

describe('parseModelOutput: time stays linear on hostile input', () => {
  const hostile: Array<[string, string]> = [
    ['unclosed calls with open strings', '<tool_call>{"'.repeat(20_000)],
    ['unclosed calls with open objects', '<tool_call>{'.repeat(20_000)],
    ['fences without newlines', '<tool_call>```'.repeat(20_000)],
    ['opening think tags', '<think>'.repeat(30_000)],
    ['think with calls, never closed', '<think><tool_call>'.repeat(20_000)],
    ['closing tags', '</think></tool_call>'.repeat(15_000)],
    ['deep braces', `<tool_call>${'{'.repeat(200_000)}`],
    ['many tiny calls', call('a', {}).repeat(5_000)],
    ['messages without ends', '<message>'.repeat(30_000)],
    ['blocks that are not JSON', '<tool_call>[</tool_call>'.repeat(5_000)],
  ];
  it.each(hostile)('%s', (_, raw) => {
    expect(raw.length).toBeGreaterThan(100_000);
    const start = performance.now();
    const parsed = parseModelOutput(raw);
    // Linear time is a few milliseconds here; a quadratic scan would take seconds.
    expect(performance.now() - start).toBeLessThan(1000);
    expect(typeof parsed.message).toBe('string');
  });
});

describe('parseServerToolCalls', () => {
  it('parses argument strings and keeps ids', () => {
    expect(
      parseServerToolCalls([
        { id: 'c1', name: 'search', arguments: '{"model": "search-1"}' },
        { id: 'c2', name: 'noop', arguments: '' },
        { id: 'c3', name: 'noop', arguments: '  ' },
        { id: 'c4', name: 'double', arguments: '"{\\"x\\": 1}"' },
      ]),
    ).toEqual({
      calls: [
        { id: 'c1', name: 'search', arguments: { model: 'search-1' } },
        { id: 'c2', name: 'noop', arguments: {} },
        { id: 'c3', name: 'noop', arguments: {} },
        { id: 'c4', name: 'double', arguments: { x: 1 } },
      ],
      rejected: [],
    });
  });

  it('rejects unparsable or non-object arguments and missing names, with reasons', () => {
    const result = parseServerToolCalls([
      { id: 'c1', name: 'search', arguments: '{"model": "search-1"' },
      { id: 'c2', name: 'search', arguments: '[1]' },
      { id: 'c3', name: '', arguments: '{}' },
      { id: 'c4', name: 'ok', arguments: '{}' },
    ]);
    expect(result.calls).toEqual([{ id: 'c4', name: 'ok', arguments: {} }]);
    expect(result.rejected.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^the arguments are not valid JSON: /),
      'arguments must be a JSON object; found an array',
      'the call has no tool name',
    ]);
    expect(result.rejected[0]?.raw).toBe('{"id":"c1","name":"search","arguments":"{\\"model\\": \\"search-1\\""}');
  });

  it('takes arguments a backend already decoded, against its declared type', () => {
    const decoded = { id: 'c1', name: 'search', arguments: { model: 'search-1' } } as unknown as { id: string; name: string; arguments: string };
    expect(parseServerToolCalls([decoded]).calls).toEqual([{ id: 'c1', name: 'search', arguments: { model: 'search-1' } }]);
  });

  it('cuts a long raw payload', () => {
    const result = parseServerToolCalls([{ id: 'x', name: 'a', arguments: `{${'"k": 1, '.repeat(1000)}` }]);
    expect(result.rejected[0]?.raw.length).toBeLessThanOrEqual(501);
  });

  // Issue 31, item 8: a call 5,000 arrays deep (10 kB) broke the channel to the page.
  it('refuses arguments nested deeper than a run file may be, as run files are (128 levels)', () => {
    const nested = (depth: number) => `{"a": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const result = parseServerToolCalls([
      { id: 'deep', name: 'a', arguments: nested(5_000) },
      { id: 'at-the-cap', name: 'a', arguments: nested(127) },
    ]);
    expect(result.calls.map((call) => call.id)).toEqual(['at-the-cap']);
    expect(result.rejected.map((r) => r.reason)).toEqual(['the call nests more than 128 arrays and objects deep, more than the playground reads']);
    const text = parseModelOutput(`<tool_call>{"name": "a", "arguments": ${nested(5_000)}}</tool_call>`);
    expect(text.calls).toEqual([]);
    expect(text.rejected.map((r) => r.reason)).toEqual(['the call nests more than 128 arrays and objects deep, more than the playground reads']);
  });
});
