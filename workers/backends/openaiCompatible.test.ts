import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedResponse } from '../../e2e/fixtures/scenario.ts';
import { startScriptedServer, type ScriptedServer } from '../../e2e/fixtures/scriptedServer.ts';
import type { ChatMessage } from '../engine/types.ts';
import { createOpenAICompatibleModel, type OpenAICompatibleOptions } from './openaiCompatible.ts';
import { MODEL, TEST_KEY, call, clientChosenHeaders, expectFailure, textOf } from '../../e2e/fixtures/backendCalls.ts';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ scenario: { models: {} } });
});
afterAll(async () => {
  await server.close();
});

function script(...responses: ScriptedResponse[]): void {
  server.reset({ models: { [MODEL]: responses } });
}

function model(options: Partial<OpenAICompatibleOptions> = {}) {
  return createOpenAICompatibleModel({ baseUrl: `${server.url}/v1/`, model: MODEL, apiKey: TEST_KEY, provider: 'vLLM', ...options });
}

function sentBody(index = 0): Record<string, unknown> {
  return server.requests[index]!.body as Record<string, unknown>;
}

describe('createOpenAICompatibleModel', () => {
  it('describes itself', () => {
    const chat = model();
    expect(chat.model).toBe(MODEL);
    expect(chat.label).toBe(`vLLM:${MODEL}`);
    expect(chat.supportsServerTools).toBe(true);
    expect(model({ supportsServerTools: false }).supportsServerTools).toBe(false);
  });

  it('streams reasoning and content, and returns usage with cached and reasoning tokens and the provider cost', async () => {
    script({
      reasoning: 'Paris is in France.',
      content: 'Paris',
      chunkSize: 3,
      usage: { prompt_tokens: 120, completion_tokens: 30, cached_tokens: 100, reasoning_tokens: 12, cost: 0.00042 },
    });
    const outcome = await call(model());
    expect(textOf(outcome.deltas, 'reasoning')).toBe('Paris is in France.');
    expect(outcome.deltas.filter((delta) => delta.type === 'reasoning')).toHaveLength(7);
    expect(textOf(outcome.deltas, 'content')).toBe('Paris');
    expect(outcome.completion).toMatchObject({
      content: 'Paris',
      reasoning: 'Paris is in France.',
      finishReason: 'stop',
      model: MODEL,
      usage: { promptTokens: 120, completionTokens: 30, cachedPromptTokens: 100, reasoningTokens: 12, costUsd: 0.00042 },
    });
    expect(outcome.completion!.toolCalls).toBeUndefined();
    expect(outcome.completion!.latencyMs).toBeGreaterThanOrEqual(outcome.completion!.timeToFirstTokenMs!);
  });

  it('leaves usage undefined when the provider sends none', async () => {
    script({ content: 'no usage here' });
    const outcome = await call(model());
    expect(outcome.completion!.usage).toBeUndefined();
    expect(outcome.completion!.content).toBe('no usage here');
  });

  it('reassembles tool calls streamed in pieces by index', async () => {
    script({
      content: '',
      chunkSize: 5,
      toolCalls: [
        { id: 'call_a', name: 'search', arguments: { model: 'search-2', query: 'capital of France' } },
        { id: 'call_b', name: 'answer', arguments: '{"model": "answer-1"' },
      ],
    });
    const outcome = await call(model());
    expect(outcome.completion!.finishReason).toBe('tool_calls');
    expect(outcome.completion!.toolCalls).toEqual([
      { id: 'call_a', name: 'search', arguments: '{"model":"search-2","query":"capital of France"}' },
      { id: 'call_b', name: 'answer', arguments: '{"model": "answer-1"' },
    ]);
    expect(outcome.completion!.timeToFirstTokenMs).toBeDefined();
  });

  it('sends only content-type and authorization, and the OpenAI request shape', async () => {
    script({ content: 'ok' });
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are good at using tools.' },
      { role: 'user', content: 'Problem: 2+2' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'answer', arguments: { model: 'answer-1' } }] },
      { role: 'tool', content: '4', toolCallId: 'c1', name: 'answer' },
    ];
    const tools = [{ name: 'answer', description: 'Answer.', parameters: { type: 'object', properties: {} } }];
    await call(model(), { messages, tools, temperature: 1, maxTokens: 12000, enableThinking: false });

    expect(clientChosenHeaders(server)).toEqual({ 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}` });
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(sentBody()).toEqual({
      model: MODEL,
      messages: [
        { role: 'system', content: 'You are good at using tools.' },
        { role: 'user', content: 'Problem: 2+2' },
        {
          role: 'assistant',
          content: '',
          // As tau2 sends arguments: Python's json.dumps.
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'answer', arguments: '{"model": "answer-1"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: '4' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 1,
      max_tokens: 12000,
      tools: [{ type: 'function', function: tools[0] }],
      chat_template_kwargs: { enable_thinking: false },
    });
  });

  it('omits tools and auth when not given, and honours maxTokensField and extraBody', async () => {
    script({ content: 'ok' });
    const chat = model({
      apiKey: undefined,
      maxTokensField: 'max_completion_tokens',
      extraBody: { top_p: 0.9, chat_template_kwargs: { foo: 1 }, stream: false },
    });
    await call(chat, { maxTokens: 50, tools: [], enableThinking: true });
    expect(clientChosenHeaders(server)).toEqual({ 'content-type': 'application/json' });
    const body = sentBody();
    expect(body.tools).toBeUndefined();
    expect(body.max_tokens).toBeUndefined();
    expect(body.max_completion_tokens).toBe(50);
    expect(body.top_p).toBe(0.9);
    expect(body.stream).toBe(true);
    expect(body.chat_template_kwargs).toEqual({ foo: 1, enable_thinking: true });
  });

  it('handles a server that answers plain JSON although asked to stream', async () => {
    script({
      ignoreStream: true,
      reasoning: 'think',
      content: 'whole answer',
      toolCalls: [{ id: 'x', name: 'search', arguments: { model: 'search-1' } }],
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    });
    const outcome = await call(model());
    expect(outcome.deltas).toEqual([
      { type: 'reasoning', text: 'think' },
      { type: 'content', text: 'whole answer' },
    ]);
    expect(outcome.completion).toMatchObject({
      content: 'whole answer',
      reasoning: 'think',
      toolCalls: [{ id: 'x', name: 'search', arguments: '{"model":"search-1"}' }],
      usage: { promptTokens: 10, completionTokens: 5 },
      finishReason: 'tool_calls',
    });
  });

  it('reports a missing model as not_found naming the model', async () => {
    script({ content: 'x', fault: { kind: 'status', status: 404, message: 'The model `nope` does not exist.' } });
    const error = expectFailure(await call(model()), 'not_found');
    expect(error.message).toContain(`"${MODEL}"`);
    expect(error.message).toContain('does not exist');
  });

  it('reads a stream whose chunks carry "error": null, as some servers send', async () => {
    // A raw server, because the scripted one only writes well-formed chunks.
    const raw = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (body: unknown) => res.write(`data: ${JSON.stringify(body)}\n\n`);
      chunk({ error: null, choices: [{ index: 0, delta: { content: 'Hel' } }] });
      chunk({ error: null, choices: [{ index: 0, delta: { content: 'lo' }, finish_reason: 'stop' }] });
      res.end('data: [DONE]\n\n');
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const { port } = raw.address() as AddressInfo;
    try {
      const outcome = await call(createOpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${port}/v1`, model: MODEL, maxRetries: 0 }));
      expect(outcome.completion?.content).toBe('Hello');
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('lets an exception from the caller\'s onDelta through unchanged, without retrying', async () => {
    script({ content: 'Hello there', chunkSize: 4 });
    const bug = new TypeError('a bug in the UI');
    await expect(
      model().complete({ messages: [{ role: 'user', content: 'Hi' }] }, () => {
        throw bug;
      }),
    ).rejects.toBe(bug);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a refused connection as network in Node', async () => {
    const closed = await startScriptedServer({ scenario: { models: {} } });
    await closed.close();
    const outcome = await call(createOpenAICompatibleModel({ baseUrl: `${closed.url}/v1`, model: MODEL, apiKey: TEST_KEY, maxRetries: 0 }));
    const error = expectFailure(outcome, 'network');
    expect(error.message).toContain('Could not connect');
    expect(error.message).toContain('ECONNREFUSED');
  });
});
