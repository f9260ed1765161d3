import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../cli/scripted/scriptedServer.ts';
import type { ChatMessage } from '../../engine/types.ts';
import { createOpenAICompatibleModel, type OpenAICompatibleOptions } from './openaiCompatible.ts';
import { MODEL, scriptedModelServer, TEST_KEY, call, clientChosenHeaders, expectFailure, textOf } from '../../../e2e/fixtures/backendCalls.ts';

let server: ScriptedServer;
const script = scriptedModelServer((started) => (server = started));

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

  // Issue 31, item 6: a slot of 4,294,967,294 made the builder walk a sparse array that long
  // (about a minute per event, in the worker that holds the keys).
  it('reads a call whatever index the stream gives it, in index order, at once', async () => {
    script({
      content: '',
      chunkSize: 4,
      toolCalls: [
        { id: 'call_far', name: 'search', arguments: { query: 'far' }, index: 4_294_967_294 },
        { id: 'call_near', name: 'answer', arguments: {}, index: 7 },
      ],
    });
    const outcome = await call(model());
    expect(outcome.completion!.toolCalls).toEqual([
      { id: 'call_near', name: 'answer', arguments: '{}' },
      { id: 'call_far', name: 'search', arguments: '{"query":"far"}' },
    ]);
  });

  it('refuses a reply of more than 128 tool calls, saying so', async () => {
    script({ content: '', toolCalls: Array.from({ length: 129 }, (_, index) => ({ name: 'search', arguments: {}, index: index * 1_000_000 })) });
    const failure = expectFailure(await call(model()), 'bad_response');
    expect(failure.message).toBe('[bad_response] vLLM sent more than 128 tool calls in one reply, the most the playground reads.');
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

  describe('through the Responses API (a request with api: "responses")', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'Be kind.' },
      { role: 'user', content: 'Größe?' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'get_area', arguments: { city: 'Zürich' } }] },
      { role: 'tool', content: '87.88', toolCallId: 'c1', name: 'get_area' },
      { role: 'assistant', content: 'Looking further.', toolCalls: [{ id: 'c2', name: 'get_population', arguments: {} }] },
      { role: 'tool', content: '421878', toolCallId: 'c2', name: 'get_population' },
    ];
    const tools = [{ name: 'get_area', description: 'Area.', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];

    it('posts to /responses the conversation as input items, flat tools, max_output_tokens and the reasoning effort', async () => {
      script({ content: 'ok' });
      const chat = model({ maxTokensField: 'max_completion_tokens', extraBody: { store: false } });
      await call(chat, { messages, tools, temperature: 1, maxTokens: 40000, api: 'responses', reasoningEffort: 'high', enableThinking: false });
      expect(server.requests[0]!.path).toBe('/v1/responses');
      expect(clientChosenHeaders(server)).toEqual({ 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}` });
      expect(sentBody()).toEqual({
        store: false,
        model: MODEL,
        input: [
          { role: 'system', content: 'Be kind.' },
          { role: 'user', content: 'Größe?' },
          // An assistant turn without text is its calls alone; arguments as json.dumps writes them.
          { type: 'function_call', call_id: 'c1', name: 'get_area', arguments: '{"city": "Z\\u00fcrich"}' },
          { type: 'function_call_output', call_id: 'c1', output: '87.88' },
          { role: 'assistant', content: 'Looking further.' },
          { type: 'function_call', call_id: 'c2', name: 'get_population', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c2', output: '421878' },
        ],
        temperature: 1,
        tools: [{ type: 'function', name: 'get_area', description: 'Area.', parameters: tools[0]!.parameters }],
        max_output_tokens: 40000,
        reasoning: { effort: 'high' },
        stream: true,
      });
    });

    it('streams the summary and the text, reassembles calls by output index, and reads usage from the final response', async () => {
      script({
        reasoning: 'Zürich first.',
        content: 'Two calls.',
        chunkSize: 3,
        toolCalls: [
          { id: 'call_a', name: 'get_area', arguments: { city: 'Zürich' } },
          { id: 'call_b', name: 'get_population', arguments: '{"city": "Bern"' },
        ],
        usage: { prompt_tokens: 300, completion_tokens: 40, cached_tokens: 256, reasoning_tokens: 25 },
      });
      const outcome = await call(model(), { messages, api: 'responses' });
      expect(textOf(outcome.deltas, 'reasoning')).toBe('Zürich first.');
      expect(textOf(outcome.deltas, 'content')).toBe('Two calls.');
      expect(outcome.deltas.filter((delta) => delta.type === 'content').length).toBeGreaterThan(1);
      expect(outcome.completion).toMatchObject({
        content: 'Two calls.',
        reasoning: 'Zürich first.',
        finishReason: 'tool_calls',
        model: MODEL,
        toolCalls: [
          { id: 'call_a', name: 'get_area', arguments: '{"city":"Zürich"}' },
          // Arguments that are not valid JSON are kept as sent, for the engine to report.
          { id: 'call_b', name: 'get_population', arguments: '{"city": "Bern"' },
        ],
        usage: { promptTokens: 300, completionTokens: 40, cachedPromptTokens: 256, reasoningTokens: 25 },
      });
    });

    it('reads a whole answer when the server does not stream, and an incomplete one as cut at its length', async () => {
      script(
        { ignoreStream: true, reasoning: 'think', content: 'whole answer', toolCalls: [{ id: 'x', name: 'get_area', arguments: { city: 'Bern' } }], usage: { prompt_tokens: 10, completion_tokens: 5 } },
        { content: 'cut sh', finishReason: 'length', usage: { prompt_tokens: 10, completion_tokens: 3 } },
      );
      const whole = await call(model(), { api: 'responses' });
      expect(whole.deltas).toEqual([
        { type: 'reasoning', text: 'think' },
        { type: 'content', text: 'whole answer' },
      ]);
      expect(whole.completion).toMatchObject({
        content: 'whole answer',
        toolCalls: [{ id: 'x', name: 'get_area', arguments: '{"city":"Bern"}' }],
        usage: { promptTokens: 10, completionTokens: 5 },
        finishReason: 'tool_calls',
      });
      expect((await call(model(), { api: 'responses' })).completion).toMatchObject({ content: 'cut sh', finishReason: 'length' });
    });

    it('reports a failed response and a stream that ends before its final event', async () => {
      const raw = createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const event = (body: Record<string, unknown>) => res.write(`event: ${String(body.type)}\ndata: ${JSON.stringify(body)}\n\n`);
        event({ type: 'response.output_text.delta', output_index: 0, delta: 'Hel' });
        if (req.url?.includes('failed')) event({ type: 'response.failed', response: { status: 'failed', error: { code: 'rate_limit_exceeded', message: 'Slow down.' } } });
        res.end();
      });
      await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
      const { port } = raw.address() as AddressInfo;
      try {
        const at = (path: string) => createOpenAICompatibleModel({ baseUrl: `http://127.0.0.1:${port}/${path}`, model: MODEL, maxRetries: 0 });
        expect(expectFailure(await call(at('failed'), { api: 'responses' }), 'rate_limit').message).toContain('Slow down.');
        expect(expectFailure(await call(at('cut'), { api: 'responses' }), 'network').message).toContain('ended before the model finished');
      } finally {
        await new Promise((resolve) => raw.close(resolve));
      }
    });
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
