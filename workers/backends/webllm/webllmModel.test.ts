import { MLCEngine, type ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { renderToolsBlock } from '../../engine/qwen3/render.ts';
import type { ChatDelta, ChatMessage, ChatModel, ChatRequest, ToolSchema } from '../../engine/types.ts';
import { BackendError, toErrorInfo } from '../../engine/errors.ts';
import { FakeWebLlmEngine, type FakeEngineScript, type FakeErrorKind, type FakeReply } from '../../../e2e/fixtures/doubles/fakeWebLlmEngine.ts';
import { createWebLlmModel, toWebLlmMessages } from './webllmModel.ts';

const MODEL_ID = 'Qwen3-0.6B-q4f32_1-MLC';
const HELLO: ChatMessage[] = [{ role: 'user', content: 'Hello' }];

function setup(script: FakeEngineScript, options: { constrainToolCalls?: boolean } = {}) {
  const engine = new FakeWebLlmEngine({ loadedModelId: MODEL_ID, ...script });
  const model = createWebLlmModel({ engine, modelId: MODEL_ID, ...options });
  return { engine, model };
}

async function run(model: ChatModel, request: Partial<ChatRequest> = {}, onDelta?: (delta: ChatDelta) => void) {
  const deltas: ChatDelta[] = [];
  const started = performance.now();
  try {
    const completion = await model.complete({ messages: HELLO, ...request }, (delta) => {
      deltas.push(delta);
      onDelta?.(delta);
    });
    return { completion, deltas, elapsedMs: performance.now() - started };
  } catch (error) {
    if (!(error instanceof BackendError)) throw error;
    return { error, deltas, elapsedMs: performance.now() - started };
  }
}

function onlyRequest(engine: FakeWebLlmEngine, index = 0): ChatCompletionRequestStreaming {
  const request = engine.requests[index];
  if (!request) throw new Error(`no request #${index}`);
  return request;
}

const reply = (deltas: string[], extra: Partial<FakeReply> = {}): FakeReply => ({ deltas, ...extra });

describe('createWebLlmModel', () => {
  it('streams content deltas and resolves with the text, usage, speeds and web-llm timings', async () => {
    const { model } = setup({
      replies: [
        reply(['Hel', 'lo', ' there'], {
          usage: {
            promptTokens: 12,
            completionTokens: 3,
            extra: { prefill_tokens_per_s: 410.5, decode_tokens_per_s: 31.25, time_to_first_token_s: 0.0292, time_per_output_token_s: 0.032, e2e_latency_s: 0.125 },
          },
        }),
      ],
    });
    const { completion, deltas } = await run(model);
    expect(deltas).toEqual([
      { type: 'content', text: 'Hel' },
      { type: 'content', text: 'lo' },
      { type: 'content', text: ' there' },
    ]);
    expect(completion).toMatchObject({
      content: 'Hello there',
      finishReason: 'stop',
      model: MODEL_ID,
      usage: { promptTokens: 12, completionTokens: 3, prefillTokensPerSecond: 410.5, decodeTokensPerSecond: 31.25 },
      timings: { timeToFirstTokenMs: 29.2, timePerOutputTokenMs: 32, totalMs: 125 },
    });
    expect(completion?.latencyMs).toBeGreaterThanOrEqual(0);
    expect(completion?.timeToFirstTokenMs).toBeLessThanOrEqual(completion?.latencyMs ?? -1);
    expect(model).toMatchObject({ model: MODEL_ID, label: `web-llm:${MODEL_ID}`, supportsServerTools: false });
  });

  it('measures time to first token and speed from the stream when web-llm sends no figures of its own', async () => {
    const { model } = setup({ chunkDelayMs: 20, replies: [reply(['a', 'b', 'c'], { usage: { promptTokens: 40 } })] });
    const { completion } = await run(model);
    expect(completion?.timeToFirstTokenMs).toBeGreaterThanOrEqual(15);
    expect(completion?.latencyMs).toBeGreaterThanOrEqual(55);
    expect(completion?.usage?.completionTokens).toBe(3);
    expect(completion?.timings?.timeToFirstTokenMs).toBeGreaterThanOrEqual(15);
    expect(completion?.usage?.decodeTokensPerSecond).toBeGreaterThan(0);
  });

  it('names the loaded model, asks for usage, and sends sampling settings', async () => {
    const { engine, model } = setup({ replies: [reply(['ok'])] });
    await run(model, { temperature: 0.2, maxTokens: 64 });
    expect(onlyRequest(engine)).toEqual({
      model: MODEL_ID,
      messages: [{ role: 'user', content: 'Hello' }],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 64,
    });
  });

  it('switches thinking with extra_body.enable_thinking, and sends nothing when unset', async () => {
    const { engine, model } = setup({ replies: [reply(['Hi']), reply(['<think>hm</think>Hi']), reply(['Hi'])] });
    const off = await run(model, { enableThinking: false });
    await run(model, { enableThinking: true });
    await run(model);
    expect(onlyRequest(engine, 0).extra_body).toEqual({ enable_thinking: false });
    expect(onlyRequest(engine, 1).extra_body).toEqual({ enable_thinking: true });
    expect(onlyRequest(engine, 2)).not.toHaveProperty('extra_body');
    // web-llm writes the empty think block itself; it stays in the raw content for the parser.
    expect(off.completion?.content).toBe('<think>\n\n</think>\n\nHi');
  });

  it('never sends tools: they go into the system prompt, calls into assistant text, results into user turns', async () => {
    const tools: ToolSchema[] = [{ name: 'search', description: 'Search the web', parameters: { type: 'object', properties: { q: { type: 'string' } } } }];
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are good at using tools.' },
      { role: 'user', content: 'Find it' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'search', arguments: { q: 'it' } }] },
      { role: 'tool', content: 'found', toolCallId: 'c1', name: 'search' },
      { role: 'tool', content: 'also found', toolCallId: 'c2', name: 'search' },
    ];
    const { engine, model } = setup({ replies: [reply(['done'])] });
    await run(model, { messages, tools });
    const sent = onlyRequest(engine);
    expect(sent).not.toHaveProperty('tools');
    expect(sent.messages).toEqual([
      { role: 'system', content: `You are good at using tools.\n\n${renderToolsBlock(tools)}` },
      { role: 'user', content: 'Find it' },
      { role: 'assistant', content: '<tool_call>\n{"name": "search", "arguments": {"q": "it"}}\n</tool_call>' },
      { role: 'user', content: '<tool_response>\nfound\n</tool_response>\n<tool_response>\nalso found\n</tool_response>' },
    ]);
  });

  it('passes prompt-mode messages (what the engine sends) through unchanged', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '<think>x</think>\n\n<tool_call>\n{}\n</tool_call>' },
      { role: 'user', content: '<tool_response>\nr\n</tool_response>' },
    ];
    expect(toWebLlmMessages(messages)).toEqual(messages);
  });

  it('rejects with aborted within 200 ms of an abort mid-stream, and the generation stops', async () => {
    const { engine, model } = setup({ chunkDelayMs: 50, replies: [reply(Array.from({ length: 40 }, (_, i) => `t${i} `)), reply(['next'])] });
    const controller = new AbortController();
    let abortedAt = 0;
    const outcome = await run(model, { signal: controller.signal }, () => {
      if (abortedAt === 0) {
        abortedAt = performance.now();
        controller.abort();
      }
    });
    expect(outcome.error?.code).toBe('aborted');
    expect(outcome.error?.message).toMatch(/^\[aborted\] /);
    expect(performance.now() - abortedAt).toBeLessThan(200);
    expect(engine.interruptCount).toBeGreaterThanOrEqual(1);
    // The model is free again: the next call runs, and the first generation ended as an abort.
    const next = await run(model);
    expect(next.completion?.content).toBe('next');
    expect(engine.generations[0]?.finishReason).toBe('abort');
    expect(engine.generations[0]?.deltasSent).toBeLessThan(5);
  });

  it('stops a generation aborted while it waited for the model, though web-llm clears interrupts at its start', async () => {
    const { engine, model } = setup({ chunkDelayMs: 30, replies: [reply(['a', 'b', 'c', 'd']), reply(['x', 'y', 'z', 'w', 'v', 'u']), reply(['last'])] });
    const first = run(model);
    const controller = new AbortController();
    const second = run(model, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 40));
    controller.abort();
    expect((await second).error?.code).toBe('aborted');
    expect((await first).completion?.content).toBe('abcd');
    expect((await run(model)).completion?.content).toBe('last');
    expect(engine.generations[1]?.finishReason).toBe('abort');
    expect(engine.generations[1]?.deltasSent).toBeLessThanOrEqual(2);
  });

  it('refuses an already aborted call without sending it', async () => {
    const { engine, model } = setup({ replies: [reply(['x'])] });
    const controller = new AbortController();
    controller.abort();
    expect((await run(model, { signal: controller.signal })).error?.code).toBe('aborted');
    expect(engine.requests).toHaveLength(0);
  });

  it("lets the caller's own exception through and still stops the generation", async () => {
    const { engine, model } = setup({ chunkDelayMs: 10, replies: [reply(['a', 'b', 'c', 'd', 'e']), reply(['fine'])] });
    const failure = new Error('the UI fell over');
    await expect(
      model.complete({ messages: HELLO }, () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await run(model)).completion?.content).toBe('fine');
    expect(engine.generations[0]?.finishReason).toBe('abort');
  });

  it('reports a stop by interruptGenerate from elsewhere as finish reason abort, not an error', async () => {
    const { engine, model } = setup({ chunkDelayMs: 10, replies: [reply(['a', 'b', 'c', 'd'])] });
    const outcome = await run(model, {}, () => engine.interruptGenerate());
    expect(outcome.completion).toMatchObject({ content: 'a', finishReason: 'abort' });
  });

  it('reports length as the finish reason when the token limit ends the answer', async () => {
    const { model } = setup({ replies: [reply(['a', 'b'], { finishReason: 'length' })] });
    expect((await run(model)).completion?.finishReason).toBe('length');
  });
});

describe('errors from web-llm', () => {
  const cases: Array<{ kind: FakeErrorKind; code: BackendError['code']; says: RegExp }> = [
    { kind: 'webgpu_unavailable', code: 'webgpu', says: /does not offer WebGPU.*remote model/ },
    { kind: 'no_adapter', code: 'webgpu', says: /no usable GPU.*hardware acceleration/ },
    { kind: 'shader_f16', code: 'webgpu', says: /shader-f16.*q4f32 variant/ },
    { kind: 'gpu_limits', code: 'webgpu', says: /maxStorageBufferBindingSize is 64MB, below the 128MB/ },
    { kind: 'device_lost', code: 'out_of_memory', says: /out of memory.*smaller model or a shorter context window/ },
    { kind: 'out_of_memory', code: 'out_of_memory', says: /not enough memory.*smaller model or a shorter context window/ },
    { kind: 'context_window', code: 'context_length', says: /too long.*5000 tokens for a window of 4096.*Shorten the task/ },
    { kind: 'model_not_found', code: 'not_found', says: /no model record.*Check the model id/ },
    { kind: 'model_not_loaded', code: 'not_found', says: /is not loaded.*Load it again/ },
    { kind: 'quota', code: 'storage_quota', says: /storage quota.*Delete cached models/ },
    { kind: 'download', code: 'network', says: /Downloading.*failed.*CORS/ },
    { kind: 'message_order', code: 'bad_request', says: /rejected the request.*MessageOrderError/ },
    { kind: 'unknown', code: 'server', says: /failed: Error: Something nobody planned for happened/ },
  ];

  for (const { kind, code, says } of cases) {
    for (const asString of [false, true]) {
      it(`turns ${kind} (${asString ? 'a string from a worker' : 'an Error'}) into [${code}] with a way out`, async () => {
        const { model } = setup({ replies: [reply(['x'], { error: { kind, asString } })] });
        const { error } = await run(model);
        expect(error?.code).toBe(code);
        expect(error?.message.startsWith(`[${code}] `)).toBe(true);
        expect(error?.description).toMatch(says);
        // The code survives a worker boundary, which keeps only the message.
        expect(toErrorInfo(new Error(error?.message)).code).toBe(code);
      });
    }
  }

  it('turns a failure in mid-stream into its BackendError, after the deltas that made it', async () => {
    const { model } = setup({ replies: [reply(['a', 'b', 'c'], { error: { kind: 'device_lost', afterDeltas: 2 } }), reply(['again'])] });
    const outcome = await run(model);
    expect(outcome.error?.code).toBe('out_of_memory');
    expect(outcome.error?.description).toMatch(/GPU gave up/);
    expect(outcome.deltas.map((delta) => (delta.type === 'content' ? delta.text : ''))).toEqual(['a', 'b']);
    expect((await run(model)).completion?.content).toBe('again');
  });

  it('says the model is not loaded when a real MLCEngine has none', async () => {
    const model = createWebLlmModel({ engine: new MLCEngine(), modelId: MODEL_ID });
    const { error } = await run(model);
    expect(error?.code).toBe('not_found');
    expect(error?.description).toBe(`"${MODEL_ID}" is not loaded (a GPU failure unloads it). Load it again.`);
  });

  it('refuses to be built without a model id', () => {
    expect(() => createWebLlmModel({ engine: new FakeWebLlmEngine(), modelId: ' ' })).toThrow(/needs the id of the loaded model/);
  });
});

describe('constrained tool calls', () => {
  const tools: ToolSchema[] = [
    { name: 'search', description: 'Search', parameters: { type: 'object', properties: { model: { type: 'string', enum: ['search-1', 'search-2'] } }, required: ['model'] } },
    { name: 'answer', description: 'Answer', parameters: { type: 'object', properties: { model: { type: 'string' } }, required: ['model'] } },
  ];
  const prompted: ChatMessage[] = [
    { role: 'system', content: `You are good at using tools.\n\n${renderToolsBlock(tools)}` },
    { role: 'user', content: 'Problem: 2+2?\n\nChoose an appropriate tool.' },
  ];

  it('constrains <tool_call> blocks to the tools listed in the system prompt', async () => {
    const { engine, model } = setup({ replies: [reply(['<tool_call>…'])] }, { constrainToolCalls: true });
    await run(model, { messages: prompted });
    const format = onlyRequest(engine).response_format;
    expect(format?.type).toBe('structural_tag');
    expect(JSON.parse(String(format?.structural_tag))).toEqual({
      type: 'structural_tag',
      format: {
        type: 'triggered_tags',
        triggers: ['<tool_call>'],
        tags: tools.map((tool) => ({
          type: 'tag',
          begin: `<tool_call>\n{"name": "${tool.name}", "arguments": `,
          content: { type: 'json_schema', json_schema: tool.parameters },
          end: '}\n</tool_call>',
        })),
      },
    });
  });

  it('leaves output free without the flag, or when the prompt lists no tools', async () => {
    const off = setup({ replies: [reply(['x'])] });
    await run(off.model, { messages: prompted });
    expect(onlyRequest(off.engine)).not.toHaveProperty('response_format');
    const noTools = setup({ replies: [reply(['x'])] }, { constrainToolCalls: true });
    await run(noTools.model, { messages: [{ role: 'system', content: 'Be brief.' }, ...HELLO] });
    expect(onlyRequest(noTools.engine)).not.toHaveProperty('response_format');
  });
});
