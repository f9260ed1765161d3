// What the controls do: start and stop runs, hand keys to the worker, import and export the
// config. Components call these; the stores only hold state.

import { assessWebGpu, probeWebGpu } from '../../workers/backends/webllm/capabilities.ts';
import { storageEstimate } from '../../workers/backends/webllm/modelCache.ts';
import type { ForkFrom, RunEvent } from '../../workers/engine/events.ts';
import { newRunId } from '../../workers/engine/ids.ts';
import { PREFERENCE_PRESETS, type PreferencePresetName } from '../../workers/engine/preferences.ts';
import { addressesOutsideCatalogue, type ForeignAddress } from '../../workers/backends/webllm/catalogue.ts';
import { keysLeftProblem, providerOrigin } from '../../workers/keys.ts';
import type { LocalModelRequest } from '../../workers/models/localModels.ts';
import type { GgufModelRequest } from '../../workers/models/ggufModels.ts';
import { readConfigText } from '../worker/configImport.ts';
import type { HumanChoice } from '../../workers/engine/types.ts';
import { compareActions } from './compareStore.ts';
import { comparisonActions } from './comparisonStore.ts';
import { createOrchestratorClient, type OrchestratorClient } from '../worker/orchestratorClient.ts';
import { customToolsActions, customToolsForConfig } from './customToolsStore.ts';
import { modelsActions, useModelsStore } from './modelsStore.ts';
import { preferenceActions, usePreferencesStore } from './preferencesStore.ts';
import { runActions, useRunStore } from './runStore.ts';
import { loadDraftChecks, loadedDraftChecks } from './draftCheck.ts';
import { setupActions, useSetupStore, type ConfigDraft } from './setupStore.ts';
import { useViewStore, viewActions } from './viewStore.ts';

const REMEMBERED_KEY_PREFIX = 'orchestra-playground:key:';

let client: OrchestratorClient | null = null;
/** What each local model was loaded from, by id (custom weights need their URL). */
const loadRequests = new Map<string, LocalModelRequest>();

function orchestrator(): OrchestratorClient {
  client ??= createOrchestratorClient({
    onEvents: queueEvents,
    onHumanTurn: (runId, turn) => {
      flushEvents();
      runActions.humanTurn(runId, turn);
    },
    onRejected: (runId, problems) => {
      flushEvents();
      runActions.rejected(runId, problems);
    },
    onKeys: (held) => setupActions.keysHeld(held),
    onRunFailed: (runId, message) => {
      flushEvents();
      withRecorder((module) => module.abandonRecording(runId));
      runActions.failed(runId, message);
    },
    onWorkerLost: (message) => {
      flushEvents();
      const lostRunId = useRunStore.getState().pendingRunId;
      if (lostRunId) withRecorder((module) => module.abandonRecording(lostRunId));
      runActions.workerLost(message);
      // Keys held only in the lost worker's memory are gone; remembered ones go to the next worker.
      setupActions.keysHeld([]);
      modelsActions.workerLost();
      restoreRememberedKeys();
      // An evaluation in the lost worker ended with it (only the Evaluate tab starts one).
      void evaluation?.then((module) => module.workerLost(message));
    },
    onModelProgress: (modelId, progress) => modelsActions.progress(modelId, progress),
    onModelState: (state) => {
      const before = new Set(useModelsStore.getState().loaded.map((model) => model.id));
      modelsActions.modelState(state);
      // A model just loaded has its files in the cache now: web-llm's own check says so.
      checkModelCache(state.loaded.filter((model) => !before.has(model.id)).flatMap((model) => loadRequests.get(model.id) ?? []));
      refreshStorageEstimate();
    },
    onModelCache: (cached, problem) => {
      modelsActions.cache(cached, problem);
      refreshStorageEstimate();
    },
    onModelWorkerFailed: (modelId, message) => modelsActions.workerFailed(modelId, message),
    onEval: (message) => {
      // Each rollout is a run of the history, recorded like any run, but not shown in the trace.
      if (message.type === 'eval_events') withRecorder((module) => module.recordEvents(message.events));
      evaluation ??= import('./evaluation.ts');
      void evaluation.then((module) => module.receive(message));
    },
  });
  return client;
}

// What the Evaluate tab does (evaluation.ts) loads with the tab, long before its worker messages.
let evaluation: Promise<typeof import('./evaluation.ts')> | null = null;

/** The worker's evaluation side, for evaluation.ts (the one place that starts and stops them). */
export function evaluationWorker(): Pick<OrchestratorClient, 'readSuite' | 'startEval' | 'stopEval'> {
  evaluation ??= import('./evaluation.ts');
  return orchestrator();
}

/** Why a file must not be written, or null: the last scan before an export, for every key the
 * worker holds (runs redact them as they record; a run kept before that, or imported, may not). */
export async function keysLeftIn(text: string): Promise<string | null> {
  try {
    const providers = await orchestrator().findKeys(text);
    return providers.length === 0 ? null : keysLeftProblem(providers);
  } catch (error) {
    return `it could not be checked for API keys: ${(error as Error).message}.`;
  }
}

// The worker posts a run's events every EVENT_BATCH_MS; the page folds what has arrived into the
// store at most once per animation frame, so a burst of batches costs one render of the trace and
// the cost panel. A hidden tab gets no frames: the timer catches it up.
const EVENTS_FALLBACK_MS = 200;
let pendingEvents: RunEvent[] = [];
let eventsScheduled = false;

// Every run is kept in the history as it streams (runRecorder.ts), loaded with the first run's
// events rather than with the first screen; one promise keeps the batches in order.
let recorder: Promise<typeof import('./runRecorder.ts')> | null = null;

function withRecorder(work: (module: typeof import('./runRecorder.ts')) => void): void {
  recorder ??= import('./runRecorder.ts');
  void recorder.then(work);
}

function queueEvents(events: RunEvent[]): void {
  withRecorder((module) => module.recordEvents(events));
  pendingEvents = pendingEvents.length === 0 ? events : pendingEvents.concat(events);
  if (eventsScheduled) return;
  eventsScheduled = true;
  requestAnimationFrame(flushEvents);
  setTimeout(flushEvents, EVENTS_FALLBACK_MS);
}

/** Applies the events that have arrived; run first by anything that ends a run. */
function flushEvents(): void {
  if (!eventsScheduled) return;
  eventsScheduled = false;
  const events = pendingEvents;
  pendingEvents = [];
  runActions.applyEvents(events);
}

/** A key the user chose to remember, as kept in localStorage: with the origin it is bound to. */
interface RememberedKey {
  key: string;
  /** null: stored (as the bare key) before keys were bound to an origin. */
  origin: string | null;
}

function readRememberedKey(provider: string): RememberedKey | null {
  const stored = localStorage.getItem(REMEMBERED_KEY_PREFIX + provider);
  if (!stored) return null;
  try {
    const parsed = JSON.parse(stored) as Partial<RememberedKey> | null;
    if (typeof parsed?.key === 'string' && parsed.key !== '' && typeof parsed.origin === 'string') {
      return { key: parsed.key, origin: parsed.origin };
    }
  } catch {
    // The bare key of an earlier version: see below.
  }
  return { key: stored, origin: null };
}

function writeRememberedKey(provider: string, remembered: RememberedKey): void {
  localStorage.setItem(REMEMBERED_KEY_PREFIX + provider, JSON.stringify(remembered));
}

/** Hands keys the user chose to remember on this device to the worker, each bound to its origin. */
export function restoreRememberedKeys(): void {
  for (const provider of useSetupStore.getState().rememberedProviders) {
    const remembered = readRememberedKey(provider);
    if (remembered) orchestrator().setKey(provider, remembered.key, remembered.origin);
    else setupActions.setRemembered(provider, false);
  }
}

/** The origin the draft sends a provider's requests to (undefined: none, or not a URL yet). */
export function draftProviderOrigin(provider: string): string | undefined {
  const { providers } = useSetupStore.getState().draft;
  return Object.hasOwn(providers, provider) ? providerOrigin(providers[provider]) : undefined;
}

/**
 * Gives a provider's key to the worker, which holds it in memory, bound to the origin of the
 * provider's base URL now. Only when `remember` is true is it also written to this browser's
 * localStorage; otherwise any stored copy is removed. Returns why it could not, or null.
 */
export function setProviderKey(provider: string, key: string | null, remember: boolean): string | null {
  const trimmed = key?.trim() || null;
  const origin = draftProviderOrigin(provider);
  if (trimmed && origin === undefined) {
    return `Give "${provider}" a full base URL first: a key is sent only to the address it was entered for.`;
  }
  orchestrator().setKey(provider, trimmed, origin ?? null);
  if (remember && trimmed && origin) writeRememberedKey(provider, { key: trimmed, origin });
  else localStorage.removeItem(REMEMBERED_KEY_PREFIX + provider);
  setupActions.setRemembered(provider, Boolean(remember && trimmed));
  return null;
}

/** The user agreed, in Setup, to send a held key to `to` (the provider's origin now) instead of the
 * origin it was entered for; a remembered copy moves with it. */
export function bindKeyToOrigin(provider: string, from: string | null, to: string): void {
  orchestrator().bindKey(provider, from, to);
  const remembered = readRememberedKey(provider);
  if (remembered && remembered.origin === from) writeRememberedKey(provider, { key: remembered.key, origin: to });
}

/** The config a run uses and an export writes: the draft with the current preferences and the
 * custom tools kept in this browser. */
export function currentConfig(): ConfigDraft {
  const { vector, instructionEnabled } = usePreferencesStore.getState();
  const customTools = customToolsForConfig();
  return {
    ...useSetupStore.getState().draft,
    preference: vector,
    preferenceInstruction: instructionEnabled,
    ...(customTools.length > 0 ? { customTools } : {}),
  };
}

/** What pressing Run did: started a run, or refused without touching the run on screen. */
export type StartOutcome = 'started' | 'busy' | 'empty_task' | 'invalid_config';

/** Starts a run of `task`; with `manual`, the person takes the orchestrator's turns. A run the
 * person starts ends any comparison on screen. */
export function startRun(task: string, { manual = false }: { manual?: boolean } = {}): StartOutcome {
  if (useRunStore.getState().phase !== 'idle') return 'busy';
  const outcome = launchRun(task, manual);
  if (outcome === 'started') comparisonActions.cleared();
  return outcome;
}

/** "Try the demo": the scripted demo's config replaces the draft (kept to go back to), a sample
 * task fills the task box (or the sample already there stays), and it runs under the current
 * preferences. Returns why it could not start, or null. */
export async function tryDemo(): Promise<string | null> {
  if (useRunStore.getState().phase !== 'idle') return 'A run is going on: stop it first.';
  try {
    const { DEMO_CONFIG, demoTask } = await import('./demoStart.ts');
    const task = await demoTask(useViewStore.getState().task);
    if (useRunStore.getState().phase !== 'idle') return 'A run is going on: stop it first.';
    setupActions.startDemo(DEMO_CONFIG);
    viewActions.setTask(task);
    viewActions.openSideTab('task');
    startRun(task);
    return null;
  } catch (error) {
    return `The demo could not start: ${(error as Error).message}`;
  }
}

/** After a manual run: the configured orchestrator runs the same task, to compare with. */
export function letOrchestratorTry(): void {
  const { run, manual, phase } = useRunStore.getState();
  if (!manual || !run || run.status !== 'finished' || phase !== 'idle') return;
  if (launchRun(run.task, false) !== 'started') return;
  const { pendingRunId } = useRunStore.getState();
  if (pendingRunId) comparisonActions.started(run, pendingRunId);
}

/** Starts a run that goes on from a step of a stored run (the current config, the stored run's
 * steps 1..N kept as recorded: workers/engine/fork.ts). */
export function startForkedRun(task: string, fork: ForkFrom): StartOutcome {
  if (useRunStore.getState().phase !== 'idle') return 'busy';
  return launchRun(task, false, fork);
}

function launchRun(task: string, manual: boolean, fork?: ForkFrom): StartOutcome {
  // Refusals leave the last run on screen: the person may still be reading it.
  const trimmed = task.trim();
  if (!trimmed) return 'empty_task';
  // The checks load right after the first screen, so they are here long before a Run; a Run
  // pressed in the first moments starts once they are.
  const checks = loadedDraftChecks();
  if (!checks) {
    void loadDraftChecks().then(() => {
      if (useRunStore.getState().phase === 'idle') launchRun(task, manual, fork);
    });
    return 'started';
  }
  const config = currentConfig();
  const check = checks.checkDraft(config);
  if (!check.ok) {
    runActions.refused(check.problems);
    return 'invalid_config';
  }
  if (manual && check.config.protocol !== 'paper') {
    runActions.refused(['You can take the orchestrator’s turns in the paper protocol only: choose "Paper" above.']);
    return 'invalid_config';
  }
  const runId = newRunId();
  compareActions.close();
  runActions.starting(runId, manual);
  orchestrator().start(runId, config, trimmed, manual, fork);
  return 'started';
}

/** The person's choice for the turn a manual run is waiting on. */
export function chooseTurn(choice: HumanChoice): void {
  const { pendingRunId, humanTurn } = useRunStore.getState();
  if (!pendingRunId || !humanTurn) return;
  runActions.humanChose();
  orchestrator().humanChoice(pendingRunId, humanTurn.turnId, choice);
}

/** A stop lands within a fraction of a second; past this the worker is ended under the run. */
const STOP_WATCHDOG_MS = 3000;

export function stopRun(): void {
  const { phase, pendingRunId } = useRunStore.getState();
  if (!pendingRunId || (phase !== 'running' && phase !== 'starting')) return;
  runActions.stopping();
  orchestrator().stop(pendingRunId);
  setTimeout(() => {
    const now = useRunStore.getState();
    if (now.pendingRunId !== pendingRunId || now.phase !== 'stopping') return;
    runActions.forceStopped(pendingRunId);
    withRecorder((module) => module.abandonRecording(pendingRunId));
    orchestrator().restart('A run did not stop in time, so its worker was ended.');
  }, STOP_WATCHDOG_MS);
}

/** The config file as the CLI reads it. It never contains a key: the format has no field for one. */
export function exportConfigText(): string {
  return `${JSON.stringify(currentConfig(), null, 2)}\n`;
}

export type ImportOutcome = { ok: true } | { ok: false; problems: string[] };

/** Reads a config file off the page's thread; on success it replaces the draft and the
 * preferences, and its custom tools join the ones kept in this browser (replacing those of the
 * same name). */
export async function importConfigText(text: string, fileName: string): Promise<ImportOutcome> {
  // Loaded right after the first screen; the kept preferences are read back before these replace them.
  await loadDraftChecks();
  const read = await readConfigText(text);
  if (!read.ok) return read;
  const draft = read.draft as ConfigDraft;
  customToolsActions.imported(read.customTools);
  const preference = draft.preference ?? 'balanced';
  if (typeof preference === 'string') {
    const preset = preference as PreferencePresetName;
    preferenceActions.load(PREFERENCE_PRESETS[preset], preset, draft.preferenceInstruction ?? true);
  } else {
    preferenceActions.load({ ...preference, tools: preference.tools ?? {} }, 'custom', draft.preferenceInstruction ?? true);
  }
  setupActions.imported(draft, fileName);
  return { ok: true };
}

let probing: Promise<void> | null = null;

/** Asks this browser's WebGPU what it can do, once; the answer goes to the models store. */
export function checkBrowserCapabilities(): void {
  probing ??= probeWebGpu().then((probe) => modelsActions.probed(probe, assessWebGpu(probe)));
}

export function refreshStorageEstimate(): void {
  void storageEstimate().then((storage) => modelsActions.storage(storage));
}

/** The addresses outside the catalogue a model would load from that the user has not agreed to. */
export function untrustedAddresses(model: LocalModelRequest): ForeignAddress[] {
  const trusted = useSetupStore.getState().trustedAddresses;
  return addressesOutsideCatalogue(model.custom).filter((address) => !trusted.includes(address.url));
}

/** Loads a model in this browser: its own model worker, driven by the orchestrator worker. A model
 * whose files come from outside the catalogue loads only once the user has agreed to each address
 * (the Models panel asks, and calls trustAddresses). */
export function loadLocalModel(model: LocalModelRequest, contextWindow: number): void {
  const unconfirmed = untrustedAddresses(model);
  if (unconfirmed.length > 0) {
    modelsActions.workerFailed(
      model.id,
      `Not loaded: confirm first that you trust ${unconfirmed.map((address) => address.url).join(' and ')}.`,
    );
    return;
  }
  modelsActions.loadRequested(model.id);
  loadRequests.set(model.id, model);
  orchestrator().loadModel(model, contextWindow);
}

/** Loads a GGUF model with llama.cpp in its own model worker (the Models panel asked first for a
 * download). */
export function loadGgufModel(request: GgufModelRequest): void {
  modelsActions.loadRequested(request.id);
  orchestrator().loadGgufModel(request);
}

export function cancelLocalModelLoad(modelId: string): void {
  orchestrator().cancelLoad(modelId);
}

export function unloadLocalModel(modelId: string): void {
  orchestrator().unloadModel(modelId);
}

/** Asks which of these models' files the browser has cached (web-llm reads its own cache). */
export function checkModelCache(models: LocalModelRequest[]): void {
  if (models.length > 0) orchestrator().checkModelCache(models);
}

export function deleteCachedModel(model: LocalModelRequest): void {
  orchestrator().deleteCachedModel(model);
}
