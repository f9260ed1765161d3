// Harness of the GGUF path. `load` and `complete` drive the real GGUF model worker (llama.cpp
// through wllama) with the ChatModel on this page; `run` goes through the app's own orchestrator
// worker and its client (the page starts the model worker, the orchestrator worker loads the
// model and runs a config with a `gguf` provider), as the playground will once it has its panel.
import type { ResultTimings } from '@wllama/wllama';
import { createGgufModel, type GgufChatBody } from '../../workers/backends/gguf/ggufModel.ts';
import type { RunEvent } from '../../workers/engine/events.ts';
import type { ChatCompletion, ChatDelta, ChatRequest } from '../../workers/engine/types.ts';
import type { GgufRuntime } from '../../workers/hosts/models/modelState.ts';
import { connectGgufEngine, type GgufLoadRequest, type GgufPortEngine } from '../../workers/hosts/models/ggufEngine.ts';
import { createOrchestratorClient } from '../../app/worker/orchestratorClient.ts';
import { createRequestClient } from '../../app/worker/requestClient.ts';
import type { ModelWorkerRequests } from '../../workers/hosts/models/modelMessages.ts';
import type { LoadProgress } from '../../workers/backends/webllm/loadProgress.ts';
import type { GgufModelRequest } from '../../workers/hosts/models/modelState.ts';
import type { LocalModelsState } from '../../workers/hosts/models/modelState.ts';

export interface GgufHarnessRun {
  events: RunEvent[];
  deltas: number;
  progress: LoadProgress[];
  /** The model list the page was last told, with the GGUF model's runtime. */
  models: LocalModelsState | undefined;
}

/** One request body through the model worker, as the ChatModel would send it. */
export interface GgufHarnessChat {
  content: string;
  finishReason: string | null;
  timings: ResultTimings | null;
  error?: string;
}

export interface GgufHarness {
  load(request: Omit<GgufLoadRequest, 'source'> & { url: string }): Promise<{ runtime: GgufRuntime; progress: number }>;
  /** A request body sent as is (e.g. with a `logit_bias`), through the model worker's port. */
  chat(body: GgufChatBody): Promise<GgufHarnessChat>;
  /** Loads through the app's orchestrator worker and runs the tasks there, one after another
   * (`together`: false) or all at once, so their model calls interleave on the one loaded model.
   * Resolves with each task's events, in the order of `tasks`, and which task made each model
   * request, in the order the requests were made. */
  runMany(config: unknown, tasks: string[], load: Omit<GgufModelRequest, 'source'> & { url: string }, options: { together: boolean }): Promise<{ events: RunEvent[][]; requests: number[] }>;
  /** One call of the ChatModel; `abortAfterDeltas` aborts it after that many deltas. */
  complete(request: Omit<ChatRequest, 'signal'>, options: { constrain: boolean; abortAfterDeltas?: number }): Promise<{ completion?: ChatCompletion; deltas: string[]; error?: string }>;
  /** Loads through the app's orchestrator worker, then runs the config there. */
  run(config: unknown, task: string, load: Omit<GgufModelRequest, 'source'> & { url: string }): Promise<GgufHarnessRun>;
}

declare global {
  interface Window {
    ggufHarness: GgufHarness;
  }
}

const MODEL_ID = 'tiny-qwen3';

type OrchestratorClient = ReturnType<typeof createOrchestratorClient>;

/** The app's own orchestrator worker and its client: the page starts the GGUF model worker, the
 * orchestrator worker loads the model through it, and `onLoaded` starts the runs, once. */
function loadThenRun(
  load: Omit<GgufModelRequest, 'source'> & { url: string },
  reject: (error: Error) => void,
  hooks: { onEvent(event: RunEvent): void; onLoaded(): void; onProgress?(report: LoadProgress): void; onState?(state: LocalModelsState): void },
): OrchestratorClient {
  let started = false;
  const client = createOrchestratorClient({
    onEvents: (batch) => batch.forEach((event) => hooks.onEvent(event)),
    onHumanTurn: () => reject(new Error('no manual run here')),
    onEval: () => undefined,
    onRunFailed: (_id, message) => reject(new Error(message)),
    onWorkerLost: (message) => reject(new Error(message)),
    onModelProgress: (_id, report) => hooks.onProgress?.(report),
    onModelState(state) {
      hooks.onState?.(state);
      if (state.failure) reject(new Error(`${state.failure.code}: ${state.failure.message}`));
      if (started || !state.loaded.some((model) => model.id === load.id)) return;
      started = true;
      hooks.onLoaded();
    },
    onModelWorkerFailed: (_id, message) => reject(new Error(message)),
  });
  client.loadGgufModel({ ...load, source: { kind: 'url', url: load.url } });
  return client;
}

/** Starts a run through the app's client; a run the worker refuses fails the harness call. */
function startRun(client: OrchestratorClient, runId: string, config: unknown, task: string, reject: (error: Error) => void): void {
  client.request('start', { runId, config, task }).then(
    (start) => {
      if (!start.ok) reject(new Error(start.problems.join('; ')));
    },
    (error: unknown) => reject(error as Error),
  );
}
let engine: GgufPortEngine | undefined;
/** What the loaded model's worker said of it: whether its vocabulary has the thinking tokens. */
let loadedRuntime: GgufRuntime | undefined;

window.ggufHarness = {
  async load({ url, ...request }) {
    const worker = createRequestClient<ModelWorkerRequests>({
      create: () => new Worker(new URL('../../workers/hosts/models/gguf.worker.ts', import.meta.url), { type: 'module', name: 'gguf model' }),
    });
    const channel = new MessageChannel();
    worker.tell('connect', { port: channel.port2 }, { transfer: [channel.port2] });
    engine = connectGgufEngine(channel.port1, MODEL_ID);
    let progress = 0;
    const runtime = await engine.load({ ...request, source: { kind: 'url', url } }, () => progress++);
    loadedRuntime = runtime;
    return { runtime, progress };
  },

  async complete(request, { constrain, abortAfterDeltas }) {
    if (!engine) throw new Error('load first');
    // As the orchestrator worker makes it (workers/models/ggufModels.ts).
    const model = createGgufModel({ engine, modelId: MODEL_ID, constrainToolCalls: constrain, thinkTokens: loadedRuntime?.thinkTokens ?? false });
    const controller = new AbortController();
    const deltas: string[] = [];
    const onDelta = (delta: ChatDelta) => {
      if (delta.type !== 'content') return;
      deltas.push(delta.text);
      if (abortAfterDeltas !== undefined && deltas.length >= abortAfterDeltas) controller.abort();
    };
    try {
      const completion = await model.complete({ ...request, signal: controller.signal }, onDelta);
      return { completion, deltas };
    } catch (error) {
      return { deltas, error: `[${(error as { code?: string }).code ?? 'unknown'}] ${(error as Error).message}` };
    }
  },

  async chat(body) {
    if (!engine) throw new Error('load first');
    let content = '';
    let finishReason: string | null = null;
    let timings: ResultTimings | null = null;
    try {
      await engine.chat(body, (chunk) => {
        const choice = chunk.choices[0];
        if (typeof choice?.delta.content === 'string') content += choice.delta.content;
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (chunk.timings) timings = chunk.timings;
      });
      return { content, finishReason, timings };
    } catch (error) {
      return { content, finishReason, timings, error: (error as Error).message };
    }
  },

  runMany(config, tasks, load, { together }) {
    return new Promise((resolve, reject) => {
      const events = tasks.map((): RunEvent[] => []);
      const requests: number[] = [];
      const finished = new Set<number>();
      // Called once the model is loaded, when `client` is set.
      const start = (index: number) => startRun(client, `run-${index}`, config, tasks[index]!, reject);
      const client = loadThenRun(load, reject, {
        onEvent(event) {
          const index = Number(event.runId.slice('run-'.length));
          if (event.type === 'content_delta' || event.type === 'reasoning_delta') return;
          events[index]!.push(event);
          if (event.type === 'model_request') requests.push(index);
          if (event.type !== 'run_finished') return;
          finished.add(index);
          if (finished.size === tasks.length) resolve({ events, requests });
          else if (!together) start(index + 1);
        },
        onLoaded() {
          if (together) tasks.forEach((_task, index) => start(index));
          else start(0);
        },
      });
    });
  },

  run(config, task, load) {
    return new Promise<GgufHarnessRun>((resolve, reject) => {
      const events: RunEvent[] = [];
      const progress: LoadProgress[] = [];
      let deltas = 0;
      let lastState: LocalModelsState | undefined;
      const client = loadThenRun(load, reject, {
        onEvent(event) {
          if (event.type === 'content_delta' || event.type === 'reasoning_delta') deltas++;
          else events.push(event);
          if (event.type === 'run_finished') resolve({ events, deltas, progress, models: lastState });
        },
        onProgress: (report) => progress.push(report),
        onState: (state) => (lastState = state),
        onLoaded: () => startRun(client, 'gguf-run', config, task, reject),
      });
    });
  },
};

const status = document.getElementById('status');
if (status) status.textContent = 'ready';
