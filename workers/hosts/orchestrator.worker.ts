/// <reference lib="webworker" />
// The orchestrator worker: runs the engine off the page's thread. It holds API keys in memory,
// each bound to the origin it was entered for (they arrive in `set_key` and never leave), holds the models loaded in this browser (each
// engine in its own model worker, reached through a port the page hands over), builds each run
// from the config through the same prepareRun the CLI uses, and posts the run's events back in
// batches.

import { createBrowserCalculatorRunner } from '../../tools/calculator/browserCalculatorRunner.ts';
import { createBrowserJavaScriptRunner } from '../../tools/javascript/browserJavaScriptRunner.ts';
import { createBrowserPythonRunner } from '../../tools/python/browserPythonRunner.ts';
import type { CorpusDocument } from '../../tools/search/corpus.ts';
import { createDocumentRetriever } from '../../tools/search/documentRetriever.ts';
import { openDocumentStore } from './documents/documentsDb.ts';
import type { Retriever } from '../engine/ports.ts';
import { createCorpusRetriever } from '../../tools/search/retriever.ts';
import { ConfigError, type OrchestraConfig } from '../engine/config.ts';
import { parseConfig } from './config.ts';
import { protocolExperts } from '../engine/configExperts.ts';
import type { ForkFrom, RunEvent } from '../engine/events.ts';
import { checkHumanChoice, createHumanOrchestrator } from '../engine/humanOrchestrator.ts';
import { runOrchestration } from '../engine/run.ts';
import { describeError, redact } from '../engine/errors.ts';
import { Redactor } from '../engine/redact.ts';
import { KeyRing } from './keys.ts';
import { EVENT_BATCH_MS, type FromWorker, type OrchestratorRequests, type ToWorker } from './messages.ts';
import { answerRequest, type RequestHandlers } from './requests.ts';
import { createLocalModels } from './models/localModels.ts';
import { type LocalModelRequest, type LocalModelsState } from './models/modelState.ts';
import { createGgufModels } from './models/ggufModels.ts';
import { prepareRun, type RunEnvironment } from './prepareRun.ts';
import type { EvalHost } from './evalHost.ts';
import type { TaskDomains } from './taskDomain.ts';
import type { DomainTools } from '../engine/preparedRun.ts';
import type { SampleTask } from '../../tools/search/sampleTasks.ts';
import { loadBackends } from '../backends/registry.ts';

declare const self: DedicatedWorkerGlobalScope;

const keys = new KeyRing();
const runs = new Map<string, AbortController>();
const python = createBrowserPythonRunner();
// QuickJS in its own worker, started from this one on the first run_javascript or custom tool call.
const javascript = createBrowserJavaScriptRunner();
// mathjs in its own worker: a runaway expression is ended there, never by ending this worker.
const calculator = createBrowserCalculatorRunner();
// web-llm's models and the GGUF models (llama.cpp) are held apart and shown as one list.
let webLlmState: LocalModelsState = { loaded: [], loading: [] };
let ggufState: LocalModelsState = { loaded: [], loading: [] };
const postModelState = (failure: LocalModelsState['failure']) => {
  const state: LocalModelsState = {
    loaded: [...webLlmState.loaded, ...ggufState.loaded],
    loading: [...webLlmState.loading, ...ggufState.loading],
  };
  if (failure) state.failure = failure;
  post({ type: 'model_state', state });
};
const localModels = createLocalModels({
  onProgress: (modelId, progress) => post({ type: 'model_progress', modelId, progress }),
  onChange: (state) => {
    webLlmState = state;
    postModelState(state.failure);
  },
});
const ggufModels = createGgufModels({
  onProgress: (modelId, progress) => post({ type: 'model_progress', modelId, progress }),
  onChange: (state) => {
    ggufState = state;
    postModelState(state.failure);
  },
});

function post(message: FromWorker): void {
  self.postMessage(message);
}

// Events wait up to EVENT_BATCH_MS and leave together; the end of a run leaves at once.
function eventBatcher(send: (events: RunEvent[]) => void) {
  let pending: RunEvent[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const flush = (): void => {
    if (flushTimer !== null) clearTimeout(flushTimer);
    flushTimer = null;
    if (pending.length === 0) return;
    const events = pending;
    pending = [];
    send(events);
  };
  const emit = (event: RunEvent): void => {
    pending.push(event);
    if (event.type === 'run_finished') flush();
    else flushTimer ??= setTimeout(flush, EVENT_BATCH_MS);
  };
  return { flush, emit };
}

// The live run's events; an evaluation's rollouts go apart, to be stored and not shown.
const { flush, emit } = eventBatcher((events) => post({ type: 'events', events }));

/** One of the app's generated files (public/generated/): the corpus, the sample tasks. */
function fetchGenerated<T>(name: string, what: string): Promise<T> {
  return fetch(new URL(`${import.meta.env.BASE_URL}generated/${name}`, self.location.origin)).then((response) => {
    if (!response.ok) throw new Error(`${what} could not be loaded (HTTP ${response.status}).`);
    return response.json() as Promise<T>;
  });
}

// The local corpus, fetched once from the app's generated files on the first search.
let corpus: Promise<Retriever> | null = null;
const localRetriever: Retriever = {
  search(query, options) {
    corpus ??= fetchGenerated<CorpusDocument[]>('corpus.json', 'The search corpus')
      .then(createCorpusRetriever)
      .catch((error: unknown) => {
        corpus = null;
        throw error;
      });
    return corpus.then((retriever) => retriever.search(query, options));
  },
};

// The documents added in the Documents panel: the documents worker stores their passages in
// IndexedDB, and this index is rebuilt from there whenever the store's revision moves.
const documentRetriever = createDocumentRetriever(() => openDocumentStore());

function usesPython(config: OrchestraConfig): boolean {
  return config.protocol === 'paper'
    ? protocolExperts(config).some(([, expert]) => expert.tool === 'enhance_reasoning')
    : config.functionCalling.tools.includes('run_python');
}

/** Turns a person is taking, by `${runId}/${turnId}`: what to do with their choice. */
const humanTurns = new Map<string, (choice: unknown) => void>();

/** The person as a manual run's orchestrator: each turn goes to the page and waits for them. */
function personFor(runId: string) {
  return createHumanOrchestrator(
    (turn, signal) =>
      new Promise((resolve, reject) => {
        const key = `${runId}/${turn.turnId}`;
        const stopped = () => {
          humanTurns.delete(key);
          reject(new DOMException('The run was stopped while you were choosing.', 'AbortError'));
        };
        if (signal?.aborted) return stopped();
        signal?.addEventListener('abort', stopped, { once: true });
        humanTurns.set(key, (value) => {
          const checked = checkHumanChoice(value, turn.tools);
          if (!checked.ok) {
            post({ type: 'human_turn', runId, turn: { ...turn, problem: checked.problem } });
            return;
          }
          humanTurns.delete(key);
          signal?.removeEventListener('abort', stopped);
          resolve(checked.choice);
        });
        // The trace on the page shows everything up to this turn before the person chooses.
        flush();
        post({ type: 'human_turn', runId, turn });
      }),
  );
}

/** The models of a provider whose models run in this browser, by its kind. */
const inBrowser: Readonly<Record<string, typeof localModels | typeof ggufModels>> = { webllm: localModels, gguf: ggufModels };

/** What a run of `config` gets from this worker: its keys, search, sandboxes and models. */
async function runEnvironment(config: OrchestraConfig): Promise<RunEnvironment> {
  // Each backend kind the config names, loaded once (the scripted demo's module only for a config
  // that names a `demo` provider).
  const backends = await loadBackends(Object.values(config.providers).map((provider) => provider.kind));
  // Pyodide takes seconds to start: it boots while the first turns stream, so the first code
  // run does not wait for it.
  if (usesPython(config)) void python.warmUp();
  return {
    // A key goes only to the origin it was entered for; otherwise the run is refused, saying why.
    apiKey: (name, provider) => keys.forRun(name, provider),
    retriever: localRetriever,
    documentRetriever,
    searchUsdPerCall: 0,
    python,
    javascript,
    calculator,
    backends,
    localModel: (modelId, providerName, provider) =>
      (inBrowser[provider.kind] ?? localModels).chatModel(modelId, {
        providerName,
        ...(provider.constrainToolCalls === undefined ? {} : { constrainToolCalls: provider.constrainToolCalls }),
      }),
  };
}

// The domains a typed task can run in (workers/hosts/taskDomain.ts), loaded with the first run
// that names one; τ²'s and ToolScale's files come from the browser catalogue, each a chunk.
let taskDomains: Promise<TaskDomains> | null = null;

function domainTools(name: string): Promise<DomainTools> {
  taskDomains ??= import('./taskDomain.ts').then(({ createTaskDomains }) =>
    createTaskDomains({
      javascript,
      tau2: (domain) =>
        import('../domains/browserTau2.ts').then(({ loadBrowserDomain }) =>
          loadBrowserDomain(domain, { userFiles: () => import('./airlineDb.ts').then(({ airlineUserFiles }) => airlineUserFiles()) }),
        ),
    }),
  );
  return taskDomains.then((domains) => domains(name));
}

/** A fork's domain database as the parent's kept steps left it (taskDomain.ts). */
async function forkedDomain(domain: DomainTools, fork: ForkFrom, signal: AbortSignal): Promise<void> {
  const { replayKeptCalls } = await import('./taskDomain.ts');
  try {
    await replayKeptCalls(domain, fork, signal);
  } catch (error) {
    throw new Error(`This run cannot go on from the stored one: ${(error as Error).message}.`, { cause: error });
  }
}

async function start(runId: string, configValue: unknown, task: string, manual: boolean, fork?: ForkFrom, domainName?: string): Promise<void> {
  let prepared: ReturnType<typeof prepareRun>;
  // Registered before anything is awaited, so a Stop pressed while a backend loads is not lost.
  const controller = new AbortController();
  runs.set(runId, controller);
  try {
    const config = parseConfig(configValue);
    const domain = domainName === undefined ? undefined : await domainTools(domainName);
    if (domain && fork) await forkedDomain(domain, fork, controller.signal);
    prepared = prepareRun(config, await runEnvironment(config), { ...(manual ? { person: personFor(runId) } : {}), ...(domain ? { domain } : {}) });
  } catch (error) {
    runs.delete(runId);
    post({
      type: 'run_rejected',
      runId,
      problems: error instanceof ConfigError ? error.problems : [redact((error as Error).message, keys.secrets())],
    });
    return;
  }

  try {
    // runOrchestration ends every run with run_finished, failures included; a throw here would be
    // an engine bug, reported as such instead of leaving the page waiting.
    await runOrchestration({
      runId,
      task,
      protocol: prepared.protocol,
      orchestrator: prepared.orchestrator,
      pricing: prepared.pricing,
      counterfactualModel: prepared.counterfactualModel,
      limits: prepared.limits,
      instruction: prepared.instruction,
      config: prepared.config,
      preference: prepared.preference,
      ...(fork ? { fork } : {}),
      ...(domainName === undefined ? {} : { domain: domainName }),
      signal: controller.signal,
      // Every key this worker holds, not only the run's: a reply may echo any of them.
      secrets: [...keys.named(), ...prepared.secrets],
      onEvent: emit,
    });
  } catch (error) {
    flush();
    // Not a backend error, so nothing redacted it yet: no held key may reach the page's screen.
    const message = redact(`The engine failed unexpectedly: ${(error as Error).message}`, keys.secrets());
    post({ type: 'run_failed', runId, message });
  } finally {
    runs.delete(runId);
    flush();
  }
}

async function checkCache(models: LocalModelRequest[]): Promise<void> {
  try {
    post({ type: 'model_cache', cached: await localModels.cached(models) });
  } catch (error) {
    post({ type: 'model_cache', cached: {}, problem: describeError(error) });
  }
}

async function deleteCached(model: LocalModelRequest): Promise<void> {
  try {
    await localModels.deleteCached(model);
    post({ type: 'model_cache', cached: { [model.id]: false } });
  } catch (error) {
    post({ type: 'model_cache', cached: {}, problem: describeError(error) });
  }
}

// Evaluations (workers/hosts/evalHost.ts) load with the first suite read or evaluation started.
const evalEvents = eventBatcher((events) => post({ type: 'eval_events', events }));
let evalHost: Promise<EvalHost> | null = null;

function withEvalHost(work: (host: EvalHost) => Promise<void> | void): void {
  evalHost ??= import('./evalHost.ts').then(({ createEvalHost }) =>
    createEvalHost({
      environment: runEnvironment,
      javascript,
      sampleTasks: () => fetchGenerated<SampleTask[]>('sample-tasks.json', 'The sample tasks'),
      post,
      emit: evalEvents.emit,
      secrets: () => keys.named(),
    }),
  );
  void evalHost.then(work);
}

/** The worker's answer to each of the page's requests (messages.ts: OrchestratorRequests). */
const handlers: RequestHandlers<OrchestratorRequests> = {
  set_key({ provider, key, origin }) {
    if (key) keys.set(provider, key, origin);
    else keys.delete(provider);
    post({ type: 'keys', held: keys.held() });
  },
  bind_key({ provider, from, to }) {
    keys.rebind(provider, from, to);
    post({ type: 'keys', held: keys.held() });
  },
  start: ({ runId, config, task, manual, fork, domain }) => void start(runId, config, task, manual === true, fork, domain),
  human_choice: ({ runId, turnId, choice }) => humanTurns.get(`${runId}/${turnId}`)?.(choice),
  stop: ({ runId }) => runs.get(runId)?.abort(),
  load_model: ({ model, contextWindow, port }) => void localModels.load(model, contextWindow, port),
  load_gguf: ({ request, port }) => void ggufModels.load(request, port),
  cancel_load: ({ modelId }) => (ggufModels.has(modelId) ? ggufModels.cancel(modelId) : localModels.cancel(modelId)),
  unload_model: ({ modelId }) => (ggufModels.has(modelId) ? ggufModels.unload(modelId) : localModels.unload(modelId)),
  check_model_cache: ({ models }) => void checkCache(models),
  delete_cached_model: ({ model }) => void deleteCached(model),
  read_suite: ({ requestId, suite }) => withEvalHost((host) => host.readSuite(requestId, suite)),
  start_eval: ({ request }) => withEvalHost((host) => host.start(request)),
  stop_eval: ({ evalId }) => withEvalHost((host) => host.stop(evalId)),
  airline_db: (body) => import('./airlineDb.ts').then(({ airlineDbRequest }) => airlineDbRequest(body)),
  find_keys: async ({ text }) => new Redactor(keys.named()).keysIn(typeof text === 'string' ? text : await text.text()),
};

self.onmessage = (message: MessageEvent<ToWorker>) => answerRequest(handlers, message.data, post);
