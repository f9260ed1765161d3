import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../../cli/scripted/scriptedServer.ts';
import { createAnthropicModel, toAnthropicMessages } from './anthropic.ts';
import { MODEL, scriptedModelServer, TEST_KEY, call, clientChosenHeaders, textOf } from '../../../e2e/fixtures/backendCalls.ts';

let server: ScriptedServer;
const script = scriptedModelServer((started) => (server = started));

describe('createAnthropicModel', () => {
  it('describes itself as an expert-only backend', () => {
    const chat = createAnthropicModel({ model: MODEL });
    expect(chat.label).toBe(`anthropic:${MODEL}`);
    expect(chat.supportsServerTools).toBe(false);
  });

  it('streams thinking and text, and counts cache reads and writes into prompt tokens', async () => {
    script({
      reasoning: 'Recall the capital.',
      content: 'Paris.',
      chunkSize: 4,
      usage: { prompt_tokens: 1000, completion_tokens: 40, cached_tokens: 700, cache_write_tokens: 200 },
    });
    const outcome = await call(createAnthropicModel({ baseUrl: `${server.url}/v1`, model: MODEL, apiKey: TEST_KEY }));
    expect(textOf(outcome.deltas, 'reasoning')).toBe('Recall the capital.');
    expect(textOf(outcome.deltas, 'content')).toBe('Paris.');
    expect(outcome.completion).toMatchObject({
      content: 'Paris.',
      reasoning: 'Recall the capital.',
      finishReason: 'stop',
      model: MODEL,
      usage: { promptTokens: 1000, completionTokens: 40, cachedPromptTokens: 700, cacheWritePromptTokens: 200 },
    });
    expect(outcome.completion!.timeToFirstTokenMs).toBeDefined();
  });

  it('maps a max_tokens stop to length', async () => {
    script({ content: 'cut sh', finishReason: 'length', usage: { prompt_tokens: 5, completion_tokens: 2 } });
    const outcome = await call(createAnthropicModel({ baseUrl: server.url, model: MODEL }));
    expect(outcome.completion).toMatchObject({ finishReason: 'length', usage: { promptTokens: 5, completionTokens: 2 } });
  });

  it('sends only the Anthropic headers and the Messages API body', async () => {
    script({ content: 'ok' });
    const chat = createAnthropicModel({ baseUrl: server.url, model: MODEL, apiKey: TEST_KEY, maxTokens: 1024 });
    await call(chat, {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Question?' },
        { role: 'user', content: 'More context.' },
      ],
      temperature: 0.2,
    });
    expect(server.requests[0]!.path).toBe('/v1/messages');
    expect(clientChosenHeaders(server)).toEqual({
      'content-type': 'application/json',
      'x-api-key': TEST_KEY,
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
    });
    expect(server.requests[0]!.body).toEqual({
      model: MODEL,
      max_tokens: 1024,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Question?\n\nMore context.' }],
      temperature: 0.2,
      stream: true,
    });
  });

  it('handles a plain JSON answer', async () => {
    script({ ignoreStream: true, reasoning: 'hmm', content: 'whole', usage: { prompt_tokens: 3, completion_tokens: 1 } });
    const outcome = await call(createAnthropicModel({ baseUrl: server.url, model: MODEL }));
    expect(outcome.deltas).toEqual([
      { type: 'reasoning', text: 'hmm' },
      { type: 'content', text: 'whole' },
    ]);
    expect(outcome.completion).toMatchObject({ content: 'whole', finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 1 } });
  });
});

describe('toAnthropicMessages', () => {
  it('lifts system turns, turns tool results into user text and merges same-role neighbours', () => {
    expect(
      toAnthropicMessages([
        { role: 'system', content: 'A' },
        { role: 'user', content: 'question' },
        { role: 'assistant', content: 'calling', toolCalls: [{ id: 't1', name: 'search', arguments: {} }] },
        { role: 'tool', content: 'result', toolCallId: 't1', name: 'search' },
        { role: 'user', content: 'go on' },
        { role: 'system', content: 'B' },
        { role: 'assistant', content: 'done' },
      ]),
    ).toEqual({
      system: 'A\n\nB',
      messages: [
        { role: 'user', content: 'question' },
        { role: 'assistant', content: 'calling' },
        { role: 'user', content: 'Result of the tool "search" (call t1):\nresult\n\ngo on' },
        { role: 'assistant', content: 'done' },
      ],
    });
  });

  it('drops empty turns and opens with a user turn, as the API requires', () => {
    expect(
      toAnthropicMessages([
        { role: 'system', content: 'A' },
        { role: 'assistant', content: 'I will look.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'search', arguments: {} }] },
        { role: 'user', content: '  ' },
        { role: 'user', content: 'go on' },
      ]).messages,
    ).toEqual([
      { role: 'user', content: '(The conversation so far:)' },
      { role: 'assistant', content: 'I will look.' },
      { role: 'user', content: 'go on' },
    ]);
  });
});
