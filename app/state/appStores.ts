// The page's state, made in one place: every store (state and its actions) and every flow (what
// the controls do: the session, local models, and, loaded with their tabs, history, replay and
// evaluation), wired to the orchestrator worker. main.tsx makes one set and provides it through
// React context (context.tsx); a test makes its own with a fake worker client (README.md here).

import { createCompareStore, type CompareStore } from './compareStore.ts';
import { createComparisonStore, type ComparisonStore } from './comparisonStore.ts';
import { createCustomToolsStore, type CustomToolsStore } from './customToolsStore.ts';
import { DraftChecks } from './draftCheck.ts';
import type { Evaluation } from './evaluation.ts';
import { createHistoryStore, type HistoryStore } from './historyStore.ts';
import { LocalModels } from './localModels.ts';
import { createModelsStore, type ModelsStore } from './modelsStore.ts';
import { createPreferencesStore, type PreferencesStore } from './preferencesStore.ts';
import type { RunRecorder } from './runRecorder.ts';
import { createRunStore, type RunStore } from './runStore.ts';
import { Session } from './session.ts';
import { createSetupStore, type SetupStore } from './setupStore.ts';
import { createViewStore, type ViewStore } from './viewStore.ts';
import type { ConnectWorker, WorkerClient, WorkerEvents } from './workerClient.ts';
import type { RunFileExportReply } from '../../workers/hosts/files/runFileExport.ts';
import type { RunFileImportReply } from '../../workers/hosts/files/runFileImport.ts';
import type { ConfigImportReply } from '../../workers/hosts/files/readConfig.ts';
import type { ResultsReadReply, ResultsReadRequest } from '../worker/resultsRead.ts';

/** What the stores need of the browser: browserPlatform() in main.tsx, an in-memory one in tests. */
export interface Platform {
  connectWorker: ConnectWorker;
  localStorage(): Storage;
  sessionStorage(): Storage;
  /** Calls back at the next animation frame. */
  nextFrame(callback: () => void): void;
  /** A monotonic clock in milliseconds (performance.now()). */
  now(): number;
  /** Saves a file the page made through the browser's download. */
  download(file: string | Blob, fileName: string, type?: string): void;
  /** Reads, checks and keeps a run file's runs in the history (off the page's thread in the
   * browser): never over a run already kept. */
  importRunFile(file: File): Promise<RunFileImportReply>;
  /** Writes the stored runs of these ids to one run file (off the page's thread in the browser). */
  exportRunFile(runIds: readonly string[]): Promise<RunFileExportReply>;
  /** Reads and checks a config file's text (off the page's thread in the browser). */
  readConfigFile(text: string): Promise<ConfigImportReply>;
  /** Reads evaluation results, a file or the ones kept, under their caps (off the page's thread in
   * the browser). */
  readResults(request: ResultsReadRequest): Promise<ResultsReadReply>;
}

export interface AppStores {
  run: RunStore;
  setup: SetupStore;
  preferences: PreferencesStore;
  models: ModelsStore;
  view: ViewStore;
  customTools: CustomToolsStore;
  comparison: ComparisonStore;
  compare: CompareStore;
  history: HistoryStore;
  checks: DraftChecks;
  worker: WorkerClient;
  session: Session;
  localModels: LocalModels;
  platform: Platform;
  /** A part loaded with its tab (history, replay, evaluation, the trace's store): made by
   * `factory` the first time it is asked for, then the same one for this set of stores. */
  part<T>(factory: (stores: AppStores) => T): T;
  /** The evaluation, loaded on first use (the Evaluate tab, or the worker's first message of one). */
  evaluation(): Promise<Evaluation>;
  /** The worker's evaluation side, for the evaluation (the one place that starts and stops them). */
  evaluationWorker(): Pick<WorkerClient, 'request' | 'tell'>;
}

export function createAppStores(platform: Platform): AppStores {
  const run = createRunStore();
  const setup = createSetupStore(platform.localStorage);
  const preferences = createPreferencesStore(platform.localStorage);
  const customTools = createCustomToolsStore();
  const history = createHistoryStore();
  const models = createModelsStore();
  const parts = new Map<unknown, unknown>();
  let recorder: Promise<RunRecorder> | null = null;
  let evaluation: Promise<Evaluation> | null = null;
  const stores: Omit<AppStores, 'worker' | 'session' | 'localModels' | 'evaluationWorker'> = {
    run, setup, preferences, customTools, history, models, platform,
    view: createViewStore(run, platform.sessionStorage),
    comparison: createComparisonStore(),
    compare: createCompareStore(),
    checks: new DraftChecks(preferences),
    part<T>(factory: (stores: AppStores) => T): T {
      if (!parts.has(factory)) parts.set(factory, factory(all));
      return parts.get(factory) as T;
    },
    evaluation() {
      evaluation ??= import('./evaluation.ts').then((module) => all.part(module.createEvaluation));
      return evaluation;
    },
  };
  // Each run is kept in the history as it streams (runRecorder.ts), loaded with the first run's
  // events rather than with the first screen; one promise keeps the batches in order.
  const withRecorder = (work: (recorder: RunRecorder) => void) => {
    recorder ??= import('./runRecorder.ts').then((module) => new module.RunRecorder(history));
    void recorder.then(work);
  };
  const worker = platform.connectWorker(workerEvents(() => all, withRecorder, () => evaluation));
  const session = new Session({ ...stores, worker, withRecorder, localStorage: platform.localStorage, nextFrame: platform.nextFrame, now: platform.now, readConfigFile: platform.readConfigFile });
  const all: AppStores = {
    ...stores,
    worker,
    session,
    localModels: new LocalModels({ models, setup, worker }),
    evaluationWorker() {
      void all.evaluation();
      return worker;
    },
  };
  return all;
}

/** Routes what the worker says to the stores and flows it concerns. */
function workerEvents(stores: () => AppStores, withRecorder: (work: (recorder: RunRecorder) => void) => void, loadedEvaluation: () => Promise<Evaluation> | null): WorkerEvents {
  return {
    onEvents: (events) => stores().session.receiveEvents(events),
    onHumanTurn: (runId, turn) => stores().session.humanTurn(runId, turn),
    onRunFailed: (runId, message) => stores().session.runFailed(runId, message),
    onWorkerLost: (message) => {
      stores().session.workerLost(message);
      stores().localModels.workerLost();
      // An evaluation in the lost worker ended with it (only one that was started is told).
      void loadedEvaluation()?.then((evaluation) => evaluation.workerLost(message));
    },
    onModelProgress: (modelId, progress) => stores().localModels.progress(modelId, progress),
    onModelState: (state) => stores().localModels.modelState(state),
    onModelWorkerFailed: (modelId, message) => stores().localModels.workerFailed(modelId, message),
    onEval: (message) => {
      // Each rollout is a run of the history, recorded like any run, but not shown in the trace.
      if (message.type === 'eval_events') withRecorder((recorder) => recorder.recordEvents(message.events));
      void stores().evaluation().then((evaluation) => evaluation.receive(message));
    },
  };
}
