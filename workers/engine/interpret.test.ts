// What the engine reads of one reply's calls is bounded (issue 31, item 6): a reply written to be
// a long list (tens of thousands of `<tool_call>` blocks, broken or not) is read in linear time,
// keeps at most MAX_TOOL_CALLS_PER_REPLY calls and answers at most MAX_REJECTED_PER_REPLY
// rejections one by one, saying how many more there were.
import { describe, expect, it } from 'vitest';
import { interpretCompletion } from './interpret.ts';
import { MAX_REJECTED_PER_REPLY, MAX_TOOL_CALLS_PER_REPLY } from './callLimits.ts';
import type { ChatCompletion } from './types.ts';

function completion(content: string, toolCalls?: ChatCompletion['toolCalls']): ChatCompletion {
  return { content, finishReason: 'stop', latencyMs: 1, ...(toolCalls ? { toolCalls } : {}) };
}

const ids = () => {
  let n = 0;
  return () => `call-${++n}`;
};

describe('interpretCompletion', () => {
  it('keeps the first 128 of 30,000 distinct text calls and counts the rest, at once', () => {
    const blocks = Array.from({ length: 30_000 }, (_, i) => `<tool_call>{"name": "search", "arguments": {"query": "q${i}"}}</tool_call>`);
    const output = interpretCompletion(completion(blocks.join('')), ids());
    expect(output.calls).toHaveLength(MAX_TOOL_CALLS_PER_REPLY);
    expect(output.calls.at(-1)?.arguments).toEqual({ query: 'q127' });
    expect(output.rejected).toEqual([{ raw: '', reason: '29,872 calls past the 128 a reply may make were not read' }]);
  });

  it('answers 16 of 20,000 broken calls one by one and counts the others', () => {
    const output = interpretCompletion(completion('<tool_call>{"name": 1}</tool_call>'.repeat(20_000)), ids());
    expect(output.calls).toEqual([]);
    expect(output.rejected).toHaveLength(MAX_REJECTED_PER_REPLY + 1);
    expect(output.rejected.at(-1)?.reason).toBe('19,984 more calls were rejected');
  });

  it('still drops a text call that repeats a server call, and keeps the server call’s raw text', () => {
    const output = interpretCompletion(
      completion('<tool_call>{"name": "search", "arguments": {"query": "x"}}</tool_call>', [{ id: 's1', name: 'search', arguments: '{"query": "x"}' }]),
      ids(),
    );
    expect(output.calls).toEqual([{ id: 'call-1', name: 'search', arguments: { query: 'x' }, origin: 'server', raw: '{"query": "x"}' }]);
    expect(output.rejected).toEqual([]);
  });
});
