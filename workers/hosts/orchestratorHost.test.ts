// The orchestrator host (what the orchestrator worker runs), built with a platform of this
// process: the real Node sandboxes (QuickJS and the calculator in worker threads; Python is never
// called), the corpus built from its npm packages, the scripted OpenAI-compatible server over real
// HTTP, web-llm's own engine client talking to the fake engine at the WebGPU boundary, and a GGUF
// model worker's side of our own port protocol. Every request of OrchestratorRequests is driven,
// through the same serveRequests and requester the worker and the page use, over a MessageChannel.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveFakeEngine } from '../../e2e/fixtures/doubles/fakeEngineWorker.ts';
import { FakeWebLlmEngine } from '../../e2e/fixtures/doubles/fakeWebLlmEngine.ts';
import { loadExample, loadScenario } from '../../e2e/fixtures/cliHarness.ts';
import { startScriptedServer, type ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { readTau2Domain } from '../../cli/nodeTau2.ts';
import { createNodeCalculatorRunner } from '../../tools/calculator/nodeCalculatorRunner.ts';
import { createNodeJavaScriptRunner } from '../../tools/javascript/nodeJavaScriptRunner.ts';
import { loadNodeCorpus, loadNodeSampleTasks } from '../../tools/search/nodeCorpus.ts';
import { createCorpusRetriever } from '../../tools/search/retriever.ts';
import type { RunEvent } from '../engine/events.ts';
import type { FromWorker, OrchestratorRequests } from './messages.ts';
import type { FromGgufWorker, ToGgufWorker } from './models/modelMessages.ts';
import { createOrchestratorHost, type HostPlatform } from './orchestratorHost.ts';
import { createRequester, serveRequests, type ReplyMessage, type RequestHandlers, type RequestMessage, type Requester } from './requests.ts';
import type { HeldKey } from './keys.ts';

const TASK = 'What is the population of the capital of Finland?';
const WEBLLM_MODEL = 'Qwen3-0.6B-q4f32_1-MLC';

let server: ScriptedServer;
const javascript = createNodeJavaScriptRunner();
const calculator = createNodeCalculatorRunner();

beforeAll(async () => {
  server = await startScriptedServer({ scenario: loadScenario('cli-function-calling') });
});
afterAll(async () => {
  calculator.dispose();
  await javascript.dispose?.();
  await server.close();
});

const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

function channel(): MessageChannel {
  const made = new MessageChannel();
  ports.push(made.port1, made.port2);
  return made;
}

/** The host behind a MessageChannel, as the worker runs it, and the page's requester; `pushed`
 * holds what the host said unasked, in order. */
function testPlatform(): HostPlatform {
  return {
    post: () => {},
    python: {
      run: () => Promise.reject(new Error('no Python in these runs')),
      dispose: () => Promise.resolve(),
      warmUp: () => Promise.resolve({ ready: false, error: 'no Python in these runs' }),
    },
    javascript,
    calculator,
    generated: async <T,>(name: string) => (name === 'corpus.json' ? loadNodeCorpus() : loadNodeSampleTasks()) as T,
    documents: createCorpusRetriever([{ id: 'doc-1', title: 'Notes', text: 'Helsinki has 558,457 people.' }]),
    tau2Domain: async (name) => readTau2Domain(name),
  };
}

function connect() {
  const pushed: FromWorker[] = [];
  const host = createOrchestratorHost({ ...testPlatform(), post: (message) => pushed.push(message) });
  const { port1: workerSide, port2: pageSide } = channel();
  const serve = serveRequests(host, (reply) => workerSide.postMessage(reply));
  workerSide.onmessage = (event: MessageEvent<RequestMessage<OrchestratorRequests>>) => serve(event.data);
  const page: Requester<OrchestratorRequests> = createRequester<OrchestratorRequests>((message, transfer) => pageSide.postMessage(message, transfer));
  pageSide.onmessage = (event: MessageEvent<ReplyMessage>) => page.settle(event.data);
  return { page, pushed };
}

/** The function-calling example against the scripted server. */
function scriptedConfig(patch: Record<string, unknown> = {}) {
  const example = loadExample('function-calling-scripted.json') as unknown as Record<string, unknown>;
  const providers = example.providers as Record<string, Record<string, unknown>>;
  return { ...example, providers: { ...providers, scripted: { ...providers.scripted, baseUrl: `${server.url}/v1` } }, ...patch };
}

const eventsOf = (pushed: FromWorker[]): RunEvent[] => pushed.flatMap((message) => (message.type === 'events' ? message.events : []));

async function until(done: () => boolean): Promise<void> {
  for (let tries = 0; tries < 1000 && !done(); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done()).toBe(true);
}

const finished = (pushed: FromWorker[], runId: string) => eventsOf(pushed).find((event) => event.type === 'run_finished' && event.runId === runId);

describe('the orchestrator host: keys', () => {
  it('holds a key bound to its origin, replies with which it holds (never the key), and sends it only there', async () => {
    const { page, pushed } = connect();
    const origin = new URL(server.url).origin;
    expect(await page.request('set_key', { provider: 'scripted', key: 'sk-host-test', origin })).toEqual([{ provider: 'scripted', origin }]);
    expect(await page.request('bind_key', { provider: 'scripted', from: origin, to: 'https://proxy.example' })).toEqual([{ provider: 'scripted', origin: 'https://proxy.example' }]);
    // Bound elsewhere now: a run is refused before anything is called, saying why.
    server.reset(loadScenario('cli-function-calling'));
    const refused = await page.request('start', { runId: 'run-moved-key', config: scriptedConfig(), task: TASK });
    expect(refused.ok).toBe(false);
    expect(server.requests).toEqual([]);
    await page.request('bind_key', { provider: 'scripted', from: 'https://proxy.example', to: origin });
    expect(await page.request('start', { runId: 'run-key', config: scriptedConfig(), task: TASK })).toEqual({ ok: true });
    await until(() => finished(pushed, 'run-key') !== undefined);
    expect(server.requests.filter((request) => request.path.endsWith('/chat/completions')).map((request) => request.headers.authorization)).toContain('Bearer sk-host-test');
    expect(JSON.stringify(pushed)).not.toContain('sk-host-test');
    expect(await page.request('find_keys', { text: 'a log that says sk-host-test' })).toEqual(['scripted']);
    expect(await page.request('find_keys', { text: new Blob(['nothing here']) })).toEqual([]);
    expect(await page.request('set_key', { provider: 'scripted', key: null, origin: null })).toEqual([]);
  });
});

describe('the orchestrator host: runs', () => {
  it('replies that a run started, then streams its events in batches, the end at once', async () => {
    const { page, pushed } = connect();
    server.reset(loadScenario('cli-function-calling'));
    const reply = await page.request('start', { runId: 'run-1', config: scriptedConfig(), task: TASK });
    expect(reply).toEqual({ ok: true });
    // Nothing of the run is posted before the reply that it started.
    await until(() => finished(pushed, 'run-1') !== undefined);
    const events = eventsOf(pushed);
    expect(events[0]).toMatchObject({ type: 'run_started', runId: 'run-1', task: TASK });
    expect(finished(pushed, 'run-1')).toMatchObject({ stopReason: 'final_message' });
    expect(pushed.filter((message) => message.type === 'events').length).toBeLessThan(events.length);
  });

  it('replies with every problem of a config it refuses, and posts nothing', async () => {
    const { page, pushed } = connect();
    const reply = await page.request('start', { runId: 'run-bad', config: { protocol: 'nope' }, task: TASK });
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.problems.length).toBeGreaterThan(0);
    expect(await page.request('start', { runId: 'run-no-domain', config: scriptedConfig(), task: TASK, domain: 'no-such-domain' })).toMatchObject({ ok: false });
    expect(pushed).toEqual([]);
  });

  it('stops a run it was asked to stop: it ends as aborted', async () => {
    const { page, pushed } = connect();
    server.reset(loadScenario('cli-function-calling'));
    expect(await page.request('start', { runId: 'run-stop', config: scriptedConfig(), task: TASK })).toEqual({ ok: true });
    await page.request('stop', { runId: 'run-stop' });
    await until(() => finished(pushed, 'run-stop') !== undefined);
    expect(finished(pushed, 'run-stop')).toMatchObject({ stopReason: 'aborted' });
  });

  it('asks the person for a manual run’s turn, re-asks with the problem of a choice it refuses, and goes on with a good one', async () => {
    const { page, pushed } = connect();
    const example = loadExample('local-scripted.json') as unknown as Record<string, unknown>;
    const config = { ...example, providers: { scripted: { kind: 'openai-compatible', baseUrl: `${server.url}/v1` } } };
    expect(await page.request('start', { runId: 'run-manual', config, task: TASK, manual: true })).toEqual({ ok: true });
    await until(() => pushed.some((message) => message.type === 'human_turn'));
    const turn = pushed.find((message) => message.type === 'human_turn');
    if (turn?.type !== 'human_turn') throw new Error('no turn');
    await page.request('human_choice', { runId: 'run-manual', turnId: turn.turn.turnId, choice: { name: 'no_such_tool', arguments: {} } as never });
    await until(() => pushed.filter((message) => message.type === 'human_turn').length === 2);
    expect(pushed.filter((message) => message.type === 'human_turn').at(-1)).toMatchObject({ turn: { turnId: turn.turn.turnId, problem: expect.any(String) } });
    server.reset(loadScenario('cli-function-calling'));
    await page.request('human_choice', { runId: 'run-manual', turnId: turn.turn.turnId, choice: { name: 'answer', arguments: { model: 'answer-1' } } });
    // The chosen expert answers, and the run ends with its answer.
    await until(() => finished(pushed, 'run-manual') !== undefined);
    expect(server.requests.map((request) => (request.body as { model?: string } | undefined)?.model)).toEqual(['scripted/answerer']);
    expect(finished(pushed, 'run-manual')).toMatchObject({ stopReason: 'answered' });
  });
});

describe('the orchestrator host: models in this browser', () => {
  it('loads a web-llm model through the port it is handed, shows its progress and state, and unloads it', async () => {
    const { page, pushed } = connect();
    const { port1, port2 } = channel();
    const engine = new FakeWebLlmEngine({});
    const serve = serveFakeEngine(engine, (response) => port2.postMessage(response));
    port2.onmessage = (event) => serve(event.data);
    await page.request('load_model', { model: { id: WEBLLM_MODEL }, contextWindow: 4096, port: port1 }, { transfer: [port1] });
    await until(() => pushed.some((message) => message.type === 'model_state' && message.state.loaded.length === 1));
    expect(pushed.some((message) => message.type === 'model_progress' && message.modelId === WEBLLM_MODEL)).toBe(true);
    await page.request('unload_model', { modelId: WEBLLM_MODEL });
    expect(pushed.at(-1)).toEqual({ type: 'model_state', state: { loaded: [], loading: [] } });
  });

  it('loads a GGUF model through its model worker’s port, cancels a load, and shows both kinds as one list', async () => {
    const { page, pushed } = connect();
    const ggufWorker = (hang: boolean) => {
      const { port1, port2 } = channel();
      port2.onmessage = (event: MessageEvent<ToGgufWorker>) => {
        const send = (message: FromGgufWorker) => port2.postMessage(message);
        // As gguf.worker.ts answers a cancelled load.
        if (event.data.type === 'cancel_load') send({ type: 'load_failed', code: 'aborted', message: 'The load was cancelled.' });
        if (event.data.type !== 'load') return;
        send({ type: 'progress', loaded: 5, total: 10 });
        if (!hang) send({ type: 'loaded', runtime: { contextWindow: 2048, threads: 1, webgpu: false, cpuReason: 'no WebGPU here', seconds: 0.1, fromCache: false, thinkTokens: true } });
      };
      return port1;
    };
    const request = (id: string) => ({ id, label: id, source: { kind: 'url' as const, url: 'https://example.com/tiny.gguf' }, contextWindow: 2048, threads: 1, gpuLayers: 0 });
    const loaded = ggufWorker(false);
    await page.request('load_gguf', { request: request('tiny'), port: loaded }, { transfer: [loaded] });
    await until(() => pushed.some((message) => message.type === 'model_state' && message.state.loaded.some((model) => model.id === 'tiny')));
    const hanging = ggufWorker(true);
    await page.request('load_gguf', { request: request('slow'), port: hanging }, { transfer: [hanging] });
    await until(() => pushed.some((message) => message.type === 'model_state' && message.state.loading.includes('slow')));
    await page.request('cancel_load', { modelId: 'slow' });
    await until(() => pushed.at(-1)?.type === 'model_state' && !(pushed.at(-1) as Extract<FromWorker, { type: 'model_state' }>).state.loading.includes('slow'));
    expect(pushed.at(-1)).toMatchObject({ type: 'model_state', state: { loaded: [{ id: 'tiny' }], loading: [] } });
    await page.request('unload_model', { modelId: 'tiny' });
    expect(pushed.at(-1)).toEqual({ type: 'model_state', state: { loaded: [], loading: [] } });
  });

  it('replies to a cache check and a delete with what it found, in words when the cache cannot be read', async () => {
    const { page, pushed } = connect();
    // Node has no Cache Storage, where web-llm keeps a model's files: nothing is in it.
    expect(await page.request('check_model_cache', { models: [{ id: WEBLLM_MODEL }] })).toEqual({ cached: { [WEBLLM_MODEL]: false } });
    expect(await page.request('delete_cached_model', { model: { id: WEBLLM_MODEL } })).toEqual({ cached: { [WEBLLM_MODEL]: false } });
    // A model outside the catalogue, without weights to find: the reply says why, in words.
    expect(await page.request('check_model_cache', { models: [{ id: 'not-in-the-catalogue' }] })).toEqual({ cached: {}, problem: expect.stringContaining('not a model in the catalogue') });
    expect(pushed).toEqual([]);
  });
});

describe('the orchestrator host: evaluations', () => {
  it('replies with what a suite holds, or every problem with its line', async () => {
    const { page } = connect();
    expect(await page.request('read_suite', { suite: { kind: 'builtin', name: 'corpus' } })).toMatchObject({ ok: true, source: 'builtin:corpus', tasks: loadNodeSampleTasks().length });
    expect(await page.request('read_suite', { suite: { kind: 'file', name: 'bad.jsonl', text: '{"no": "question"}\n' } })).toMatchObject({ ok: false, problems: expect.arrayContaining([expect.any(String)]) });
  });

  it('replies that an evaluation is prepared, then streams its progress, its rollouts’ events and its end; refuses one that cannot start', async () => {
    const { page, pushed } = connect();
    server.reset(loadScenario('cli-function-calling'));
    const request = { evalId: 'eval-1', config: scriptedConfig(), suite: { kind: 'builtin', name: 'corpus' } as const, policies: ['orchestrator'], rollouts: 1, concurrency: 1, budgetUsd: null, seed: '0', limit: 1, previous: [] };
    const reply = await page.request('start_eval', { request });
    expect(reply).toMatchObject({ ok: true, source: 'builtin:corpus', rollouts: 1, policies: [{ name: 'orchestrator' }] });
    expect(reply.ok && reply.taskIds).toHaveLength(1);
    await until(() => pushed.some((message) => message.type === 'eval_finished'));
    expect(pushed.some((message) => message.type === 'eval_progress' && message.event.type === 'rollout_finished')).toBe(true);
    expect(pushed.some((message) => message.type === 'eval_events')).toBe(true);
    expect(pushed.find((message) => message.type === 'eval_finished')).toMatchObject({ evalId: 'eval-1', end: { interrupted: false } });

    expect(await page.request('start_eval', { request: { ...request, evalId: 'eval-2', policies: [] } })).toEqual({ ok: false, problems: ['Pick at least one policy.'] });
    // Stopping an evaluation that is not running changes nothing.
    await page.request('stop_eval', { evalId: 'eval-2' });
  });
});

describe('a request added with its reply', () => {
  it('is its entry in the map, its handler and its caller: no stream message, no switch', async () => {
    // 1. messages.ts: its entry in OrchestratorRequests (here, the map widened in this test).
    type WithCount = OrchestratorRequests & { count_keys: { body: Record<string, never>; reply: number } };
    // 2. orchestratorHost.ts: its handler beside the others.
    const pushed: FromWorker[] = [];
    const host = createOrchestratorHost({ ...testPlatform(), post: (message) => pushed.push(message) });
    let held = 0;
    const handlers: RequestHandlers<WithCount> = {
      ...host,
      set_key: (body, context) => {
        const reply = host.set_key(body, context) as HeldKey[];
        held = reply.length;
        return reply;
      },
      count_keys: () => held,
    };
    const { port1: workerSide, port2: pageSide } = channel();
    const serve = serveRequests(handlers, (reply) => workerSide.postMessage(reply));
    workerSide.onmessage = (event: MessageEvent<RequestMessage<WithCount>>) => serve(event.data);
    const page = createRequester<WithCount>((message, transfer) => pageSide.postMessage(message, transfer));
    pageSide.onmessage = (event: MessageEvent<ReplyMessage>) => page.settle(event.data);
    // 3. The page: its caller, answered with the reply.
    await page.request('set_key', { provider: 'p', key: 'sk-1', origin: 'https://a.example' });
    expect(await page.request('count_keys', {})).toBe(1);
    expect(pushed).toEqual([]);
  });
});
