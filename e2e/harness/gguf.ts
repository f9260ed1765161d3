// Harness of the GGUF path: the real model worker (llama.cpp through wllama), its port engine, the
// ChatModel over it and a whole run of the real engine through prepareRun, with a `gguf` provider.
// The page plays the orchestrator worker's part (the engine runs on this page here, not in the
// app's worker): everything from the ChatModel down is what the app runs.
import { createGgufModel } from '../../workers/backends/gguf/ggufModel.ts';
import { parseConfig } from '../../workers/engine/config.ts';
import type { RunEvent } from '../../workers/engine/events.ts';
import type { Retriever } from '../../workers/engine/ports.ts';
import { runOrchestration } from '../../workers/engine/run.ts';
import type { ChatCompletion, ChatDelta, ChatRequest } from '../../workers/engine/types.ts';
import type { GgufRuntime } from '../../workers/messages.ts';
import { connectGgufEngine, type GgufLoadRequest, type GgufPortEngine } from '../../workers/models/ggufEngine.ts';
import { prepareRun } from '../../workers/prepareRun.ts';
import { createBrowserPythonRunner } from '../../tools/python/browserPythonRunner.ts';
import { createCorpusRetriever } from '../../tools/search/retriever.ts';
import type { CorpusDocument } from '../../tools/search/corpus.ts';

export interface GgufHarnessRun {
  events: RunEvent[];
  deltas: number;
}

export interface GgufHarness {
  load(request: Omit<GgufLoadRequest, 'source'> & { url: string }): Promise<{ runtime: GgufRuntime; progress: number }>;
  /** One call of the ChatModel; `abortAfterDeltas` aborts it after that many deltas. */
  complete(request: Omit<ChatRequest, 'signal'>, options: { constrain: boolean; abortAfterDeltas?: number }): Promise<{ completion?: ChatCompletion; deltas: string[]; error?: string }>;
  run(config: unknown, task: string): Promise<GgufHarnessRun>;
}

declare global {
  interface Window {
    ggufHarness: GgufHarness;
  }
}

const MODEL_ID = 'tiny-qwen3';
let engine: GgufPortEngine | undefined;
let contextWindow = 0;

const python = createBrowserPythonRunner();
let corpus: Promise<Retriever> | undefined;
const retriever: Retriever = {
  search(query, options) {
    corpus ??= fetch('/generated/corpus.json')
      .then((response) => response.json() as Promise<CorpusDocument[]>)
      .then(createCorpusRetriever);
    return corpus.then((ready) => ready.search(query, options));
  },
};

window.ggufHarness = {
  async load({ url, ...request }) {
    const worker = new Worker(new URL('../../workers/models/gguf.worker.ts', import.meta.url), { type: 'module', name: 'gguf model' });
    const channel = new MessageChannel();
    worker.postMessage({ type: 'connect', port: channel.port2 }, [channel.port2]);
    engine = connectGgufEngine(channel.port1, MODEL_ID);
    let progress = 0;
    const runtime = await engine.load({ ...request, source: { kind: 'url', url } }, () => progress++);
    contextWindow = runtime.contextWindow;
    return { runtime, progress };
  },

  async complete(request, { constrain, abortAfterDeltas }) {
    if (!engine) throw new Error('load first');
    const model = createGgufModel({ engine, modelId: MODEL_ID, constrainToolCalls: constrain });
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

  async run(configValue, task) {
    if (!engine) throw new Error('load first');
    const loaded = engine;
    const config = parseConfig(configValue);
    const prepared = prepareRun(config, {
      apiKey: () => undefined,
      retriever,
      searchUsdPerCall: 0,
      python,
      localModel: (modelId, _providerName, provider) => ({
        model: createGgufModel({ engine: loaded, modelId, constrainToolCalls: provider.constrainToolCalls ?? false }),
        contextWindow,
      }),
    });
    const events: RunEvent[] = [];
    let deltas = 0;
    await runOrchestration({
      task,
      protocol: prepared.protocol,
      orchestrator: prepared.orchestrator,
      pricing: prepared.pricing,
      counterfactualModel: prepared.counterfactualModel,
      limits: prepared.limits,
      instruction: prepared.instruction,
      config: prepared.config,
      preference: prepared.preference,
      onEvent: (event) => {
        if (event.type === 'content_delta' || event.type === 'reasoning_delta') deltas++;
        else events.push(event);
      },
    });
    return { events, deltas };
  },
};

const status = document.getElementById('status');
if (status) status.textContent = 'ready';
