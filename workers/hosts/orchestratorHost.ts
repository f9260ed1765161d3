// The orchestrator host: what the orchestrator worker does, as one object that owns its state (no
// module singletons) and answers every request of OrchestratorRequests (messages.ts) with one
// handler; a request that expects an answer gets it as its reply. What the host says unasked (a
// run's events, a turn the person takes, model progress and state, an evaluation's progress) goes
// through `platform.post`. It holds API keys in memory, each bound to the origin it was entered
// for (they arrive in `set_key` and never leave), holds the models loaded in this browser (each
// engine in its own model worker, reached through a port the page hands over), builds each run
// from the config through the same prepareRun the CLI uses, and posts the run's events in batches.
// What it needs from where it runs is its platform: orchestrator.worker.ts plugs in the browser's
// (workerHostPlatform.ts), orchestratorHost.test.ts its own.

import type { CorpusDocument } from '../../tools/search/corpus.ts';
import type { WarmablePythonRunner } from '../../tools/python/pythonHost.ts';
import { createCorpusRetriever } from '../../tools/search/retriever.ts';
import type { SampleTask } from '../../tools/search/sampleTasks.ts';
import { ConfigError, type OrchestraConfig } from '../engine/config.ts';
import { protocolExperts } from '../engine/configExperts.ts';
import type { ForkFrom, RunEvent } from '../engine/events.ts';
import { checkHumanChoice, createHumanOrchestrator } from '../engine/humanOrchestrator.ts';
import type { CalculatorRunner, JavaScriptRunner, Retriever } from '../engine/ports.ts';
import type { DomainTools } from '../engine/preparedRun.ts';
import { runOrchestration } from '../engine/run.ts';
import { describeError, redact } from '../engine/errors.ts';
import { Redactor } from '../engine/redact.ts';
import { loadBackends } from '../backends/registry.ts';
import type { LoadedTau2Domain, Tau2DomainName } from '../domains/tau2/domains.ts';
import { parseConfig } from './config.ts';
import type { EvalHost } from './evalHost.ts';
import { KeyRing } from './keys.ts';
import { EVENT_BATCH_MS, type FromWorker, type ModelCacheReply, type OrchestratorRequests, type RunStart } from './messages.ts';
import { createGgufModels } from './models/ggufModels.ts';
import { createLocalModels } from './models/localModels.ts';
import type { LocalModelsState } from './models/modelState.ts';
import { prepareRun, type RunEnvironment } from './prepareRun.ts';
import type { RequestHandlers } from './requests.ts';
import type { TaskDomains } from './taskDomain.ts';
import { sendEventsSafely } from './eventChannel.ts';
import { RunStop } from '../engine/protocol.ts';

/** What the host needs from where it runs. */
export interface HostPlatform {
  /** Posts what the host says unasked (replies go back through serveRequests). */
  post(message: FromWorker): void;
  python: WarmablePythonRunner;
  /** QuickJS in its own worker, started on the first run_javascript or custom tool call. */
  javascript: JavaScriptRunner;
  /** mathjs in its own worker: a runaway expression is ended there, never by ending the host's. */
  calculator: CalculatorRunner;
  /** One of the app's generated files (public/generated/): the corpus, the sample tasks. */
  generated<T>(name: 'corpus.json' | 'sample-tasks.json', what: string): Promise<T>;
  /** The documents added in the Documents panel. */
  documents: Retriever;
  /** A τ² or ToolScale domain, its files read and its database parsed. */
  tau2Domain(name: Tau2DomainName): Promise<LoadedTau2Domain>;
}

/** The orchestrator worker's answer to every request of the page. */
export type OrchestratorHost = RequestHandlers<OrchestratorRequests>;

/** Events wait up to EVENT_BATCH_MS and leave together; the end of a run leaves at once. */
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

/** Work that goes on after a request's reply: started on the next task, so the reply (posted a
 * few microtasks after its handler settles) reaches the page before anything the work posts. */
function afterReply(work: () => Promise<void>): void {
  setTimeout(() => void work(), 0);
}

/** The models in this browser: web-llm's and the GGUF models (llama.cpp), held apart and shown as
 * one list in `model_state`. */
function inBrowserModels(post: (message: FromWorker) => void) {
  let webLlmState: LocalModelsState = { loaded: [], loading: [] };
  let ggufState: LocalModelsState = { loaded: [], loading: [] };
  const postState = (failure: LocalModelsState['failure']) => {
    const state: LocalModelsState = { loaded: [...webLlmState.loaded, ...ggufState.loaded], loading: [...webLlmState.loading, ...ggufState.loading] };
    if (failure) state.failure = failure;
    post({ type: 'model_state', state });
  };
  const onProgress = (modelId: string, progress: Extract<FromWorker, { type: 'model_progress' }>['progress']) => post({ type: 'model_progress', modelId, progress });
  const webLlm = createLocalModels({
    onProgress,
    onChange: (state) => {
      webLlmState = state;
      postState(state.failure);
    },
  });
  const gguf = createGgufModels({
    onProgress,
    onChange: (state) => {
      ggufState = state;
      postState(state.failure);
    },
  });
  /** Which files are cached, in words when the cache could not be read or changed. */
  const cacheReply = async (work: () => Promise<Record<string, boolean>>): Promise<ModelCacheReply> => {
    try {
      return { cached: await work() };
    } catch (error) {
      return { cached: {}, problem: describeError(error) };
    }
  };
  return {
    webLlm,
    gguf,
    /** The models of a provider whose models run in this browser, by its kind. */
    ofKind: (kind: string) => (kind === 'gguf' ? gguf : webLlm),
    ofModel: (modelId: string) => (gguf.has(modelId) ? gguf : webLlm),
    cached: (models: Parameters<typeof webLlm.cached>[0]) => cacheReply(() => webLlm.cached(models)),
    deleteCached: (model: Parameters<typeof webLlm.deleteCached>[0]) =>
      cacheReply(async () => {
        await webLlm.deleteCached(model);
        return { [model.id]: false };
      }),
  };
}

type InBrowserModels = ReturnType<typeof inBrowserModels>;

function usesPython(config: OrchestraConfig): boolean {
  return config.protocol === 'paper'
    ? protocolExperts(config).some(([, expert]) => expert.tool === 'enhance_reasoning')
    : config.functionCalling.tools.includes('run_python');
}

/** What a run of a config gets from the host: its keys, search, sandboxes and models. */
function runEnvironments(platform: HostPlatform, keys: KeyRing, models: InBrowserModels) {
  // The bundled corpus, fetched once from the app's generated files on the first search.
  let corpus: Promise<Retriever> | null = null;
  const localRetriever: Retriever = {
    search(query, options) {
      corpus ??= platform
        .generated<CorpusDocument[]>('corpus.json', 'The search corpus')
        .then(createCorpusRetriever)
        .catch((error: unknown) => {
          corpus = null;
          throw error;
        });
      return corpus.then((retriever) => retriever.search(query, options));
    },
  };
  return async (config: OrchestraConfig): Promise<RunEnvironment> => {
    // Each backend kind the config names, loaded once (the scripted demo's module only for a
    // config that names a `demo` provider).
    const backends = await loadBackends(Object.values(config.providers).map((provider) => provider.kind));
    // Pyodide takes seconds to start: it boots while the first turns stream, so the first code
    // run does not wait for it.
    if (usesPython(config)) void platform.python.warmUp();
    return {
      // A key goes only to the origin it was entered for; otherwise the run is refused, saying why.
      apiKey: (name, provider) => keys.forRun(name, provider),
      retriever: localRetriever,
      documentRetriever: platform.documents,
      searchUsdPerCall: 0,
      python: platform.python,
      javascript: platform.javascript,
      calculator: platform.calculator,
      backends,
      localModel: (modelId, providerName, provider) =>
        models.ofKind(provider.kind).chatModel(modelId, {
          providerName,
          ...(provider.constrainToolCalls === undefined ? {} : { constrainToolCalls: provider.constrainToolCalls }),
        }),
    };
  };
}

/** The person as a manual run's orchestrator: each turn goes to the page and waits for their
 * choice (`human_choice`), which the host checks before the run goes on. */
function humanTurns(post: (message: FromWorker) => void, flush: () => void) {
  /** Turns a person is taking, by `${runId}/${turnId}`: what to do with their choice. */
  const waiting = new Map<string, (choice: unknown) => void>();
  const personFor = (runId: string) =>
    createHumanOrchestrator(
      (turn, signal) =>
        new Promise((resolve, reject) => {
          const key = `${runId}/${turn.turnId}`;
          const stopped = () => {
            waiting.delete(key);
            reject(new DOMException('The run was stopped while you were choosing.', 'AbortError'));
          };
          if (signal?.aborted) return stopped();
          signal?.addEventListener('abort', stopped, { once: true });
          waiting.set(key, (value) => {
            const checked = checkHumanChoice(value, turn.tools);
            if (!checked.ok) {
              post({ type: 'human_turn', runId, turn: { ...turn, problem: checked.problem } });
              return;
            }
            waiting.delete(key);
            signal?.removeEventListener('abort', stopped);
            resolve(checked.choice);
          });
          // The trace on the page shows everything up to this turn before the person chooses.
          flush();
          post({ type: 'human_turn', runId, turn });
        }),
    );
  return { personFor, choose: (runId: string, turnId: string, choice: unknown) => waiting.get(`${runId}/${turnId}`)?.(choice) };
}

/** The domains a typed task can run in (taskDomain.ts), loaded with the first run that names one. */
function taskDomainsOf(platform: HostPlatform) {
  let taskDomains: Promise<TaskDomains> | null = null;
  const domainTools = (name: string): Promise<DomainTools> => {
    taskDomains ??= import('./taskDomain.ts').then(({ createTaskDomains }) => createTaskDomains({ javascript: platform.javascript, tau2: (domain) => platform.tau2Domain(domain) }));
    return taskDomains.then((domains) => domains(name));
  };
  /** A domain's database as a fork's parent's kept steps left it. */
  const forked = async (name: string, fork: ForkFrom | undefined, signal: AbortSignal, maxWallSeconds: number | null): Promise<DomainTools> => {
    const domain = await domainTools(name);
    if (!fork) return domain;
    const { replayKeptCalls } = await import('./taskDomain.ts');
    try {
      await replayKeptCalls(domain, fork, signal, maxWallSeconds === null ? null : maxWallSeconds * 1000);
    } catch (error) {
      throw new Error(`This run cannot go on from the stored one: ${(error as Error).message}.`, { cause: error });
    }
    return domain;
  };
  return forked;
}

type StartBody = OrchestratorRequests['start']['body'];

/** Runs: started (the reply says whether it could start), stopped, and a manual run's turns. */
function runsOf(platform: HostPlatform, keys: KeyRing, environment: (config: OrchestraConfig) => Promise<RunEnvironment>) {
  const runs = new Map<string, AbortController>();
  // The live run's events; an evaluation's rollouts go apart, to be stored and not shown. A run one
  // of whose events the channel refuses ends with that error (eventChannel.ts).
  const endLostRun = (runId: string): void => runs.get(runId)?.abort(new RunStop('error'));
  const { flush, emit } = eventBatcher(sendEventsSafely((events) => platform.post({ type: 'events', events }), endLostRun));
  const person = humanTurns(platform.post, flush);
  const domainOf = taskDomainsOf(platform);

  const prepare = async ({ runId, config: value, manual, fork, domain: name }: StartBody, signal: AbortSignal) => {
    const config = parseConfig(value);
    const domain = name === undefined ? undefined : await domainOf(name, fork, signal, config.limits.maxWallSeconds);
    return prepareRun(config, await environment(config), { ...(manual ? { person: person.personFor(runId) } : {}), ...(domain ? { domain } : {}) });
  };

  const run = async ({ runId, task, fork, domain }: StartBody, prepared: ReturnType<typeof prepareRun>, controller: AbortController) => {
    try {
      // runOrchestration ends every run with run_finished, failures included; a throw here would
      // be an engine bug, reported as such instead of leaving the page waiting.
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
        ...(domain === undefined ? {} : { domain }),
        signal: controller.signal,
        // Every key the host holds, not only the run's: a reply may echo any of them.
        secrets: [...keys.named(), ...prepared.secrets],
        onEvent: emit,
      });
    } catch (error) {
      flush();
      // Not a backend error, so nothing redacted it yet: no held key may reach the page's screen.
      platform.post({ type: 'run_failed', runId, message: redact(`The engine failed unexpectedly: ${(error as Error).message}`, keys.secrets()) });
    } finally {
      runs.delete(runId);
      flush();
    }
  };

  const start = async (body: StartBody): Promise<RunStart> => {
    // Registered before anything is awaited, so a Stop pressed while a backend loads is not lost.
    const controller = new AbortController();
    runs.set(body.runId, controller);
    let prepared: ReturnType<typeof prepareRun>;
    try {
      prepared = await prepare(body, controller.signal);
    } catch (error) {
      runs.delete(body.runId);
      return { ok: false, problems: error instanceof ConfigError ? error.problems : [redact((error as Error).message, keys.secrets())] };
    }
    afterReply(() => run(body, prepared, controller));
    return { ok: true };
  };

  return { start, stop: (runId: string) => runs.get(runId)?.abort(), choose: person.choose };
}

/** Evaluations (evalHost.ts), loaded with the first suite read or evaluation started. */
function evaluationsOf(platform: HostPlatform, keys: KeyRing, environment: (config: OrchestraConfig) => Promise<RunEnvironment>) {
  const evalEvents = eventBatcher(sendEventsSafely((events) => platform.post({ type: 'eval_events', events }), () => {}));
  let evalHost: Promise<EvalHost> | null = null;
  return (): Promise<EvalHost> =>
    (evalHost ??= import('./evalHost.ts').then(({ createEvalHost }) =>
      createEvalHost({
        environment,
        javascript: platform.javascript,
        sampleTasks: () => platform.generated<SampleTask[]>('sample-tasks.json', 'The sample tasks'),
        post: platform.post,
        emit: evalEvents.emit,
        afterReply,
        secrets: () => keys.named(),
      }),
    ));
}

export function createOrchestratorHost(platform: HostPlatform): OrchestratorHost {
  const keys = new KeyRing();
  const models = inBrowserModels(platform.post);
  const environment = runEnvironments(platform, keys, models);
  const runs = runsOf(platform, keys, environment);
  const evaluations = evaluationsOf(platform, keys, environment);
  return {
    set_key({ provider, key, origin }) {
      if (key) keys.set(provider, key, origin);
      else keys.delete(provider);
      return keys.held();
    },
    bind_key({ provider, from, to }) {
      keys.rebind(provider, from, to);
      return keys.held();
    },
    start: (body) => runs.start(body),
    human_choice: ({ runId, turnId, choice }) => runs.choose(runId, turnId, choice),
    stop: ({ runId }) => runs.stop(runId),
    load_model: ({ model, contextWindow, port }) => void models.webLlm.load(model, contextWindow, port),
    load_gguf: ({ request, port }) => void models.gguf.load(request, port),
    cancel_load: ({ modelId }) => models.ofModel(modelId).cancel(modelId),
    unload_model: ({ modelId }) => models.ofModel(modelId).unload(modelId),
    check_model_cache: ({ models: requests }) => models.cached(requests),
    delete_cached_model: ({ model }) => models.deleteCached(model),
    read_suite: async ({ suite }) => (await evaluations()).readSuite(suite),
    start_eval: async ({ request }) => (await evaluations()).start(request),
    stop_eval: async ({ evalId }) => (await evaluations()).stop(evalId),
    find_keys: async ({ text }) => new Redactor(keys.named()).keysIn(typeof text === 'string' ? text : await text.text()),
  };
}
