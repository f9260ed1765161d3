// What the controls do: start and stop runs, hand keys to the worker, import and export the
// config. Components call these (through context.tsx's useSession); the stores only hold state.
// One Session per set of stores (appStores.ts), so a test makes a fresh one with a fake worker.

import { MAX_TASK_CHARS, type ForkFrom, type RunEvent } from '../../workers/engine/events.ts';
import { newRunId } from '../../workers/engine/ids.ts';
import { PREFERENCE_PRESETS, type PreferencePresetName } from '../../workers/engine/preferences.ts';
import type { HumanChoice, HumanTurn } from '../../workers/engine/types.ts';
import { keysLeftProblem, providerOrigin } from '../../workers/hosts/keys.ts';
import type { ConfigImportReply } from '../../workers/hosts/files/readConfig.ts';
import type { RunStart } from '../../workers/hosts/messages.ts';
import type { CompareStore } from './compareStore.ts';
import type { ComparisonStore } from './comparisonStore.ts';
import { customToolsForConfig, type CustomToolsStore } from './customToolsStore.ts';
import type { DraftChecks } from './draftCheck.ts';
import type { PreferencesStore } from './preferencesStore.ts';
import type { RunRecorder } from './runRecorder.ts';
import type { RunStore } from './runStore.ts';
import type { ConfigDraft, SetupStore } from './setupStore.ts';
import type { ViewStore } from './viewStore.ts';
import type { WorkerClient } from './workerClient.ts';

const REMEMBERED_KEY_PREFIX = 'orchestra-playground:key:';

// The worker posts a run's events every EVENT_BATCH_MS; the page folds what has arrived into the
// store once per animation frame, so a burst of batches costs one render of the trace and the cost
// panel. A hidden tab gets no frames: the timer catches it up.
const EVENTS_FALLBACK_MS = 200;
/** Folding a frame's events stops once it has taken this long; the rest waits for the next frame,
 * so a backlog (a page that fell behind, a tab shown again) never makes one long task of it. */
const FLUSH_BUDGET_MS = 4;
/** Events folded between two looks at the clock. */
const FLUSH_SLICE = 16;

/** A stop lands within a fraction of a second; past this the worker is ended under the run. */
const STOP_WATCHDOG_MS = 3000;

export interface SessionDeps {
  run: RunStore;
  setup: SetupStore;
  preferences: PreferencesStore;
  customTools: CustomToolsStore;
  view: ViewStore;
  comparison: ComparisonStore;
  compare: CompareStore;
  checks: DraftChecks;
  worker: WorkerClient;
  /** Runs `work` with the run recorder, loaded with the first run's events (appStores.ts). */
  withRecorder(work: (recorder: RunRecorder) => void): void;
  /** The browser's localStorage, where keys the user chose to remember are kept. */
  localStorage(): Storage;
  /** Calls back at the next animation frame (requestAnimationFrame). */
  nextFrame(callback: () => void): void;
  /** Reads a config file's text, off the page's thread in the browser (Platform). */
  readConfigFile(text: string): Promise<ConfigImportReply>;
  /** A monotonic clock in milliseconds (performance.now()), for the flush's budget. */
  now(): number;
}

/** A key the user chose to remember, as kept in localStorage: with the origin it is bound to. */
interface RememberedKey {
  key: string;
  /** null: stored (as the bare key) before keys were bound to an origin. */
  origin: string | null;
}

/** What pressing Run did: started a run, or refused without touching the run on screen. */
export type StartOutcome = 'started' | 'busy' | 'empty_task' | 'task_too_long' | 'invalid_config';

export type ImportOutcome = { ok: true } | { ok: false; problems: string[] };

export class Session {
  /** Events received and not yet folded into the run store, in order. */
  private pendingEvents: RunEvent[] = [];
  /** Which scheduled flush may run (0: none): a frame and a fallback timer race for each. */
  private flushScheduled = 0;
  private flushGeneration = 0;
  /** How many tasks "Try the demo" has picked (demoStart.ts). */
  private demoPicks = 0;

  constructor(private readonly deps: SessionDeps) {}

  // What the worker says about runs (appStores.ts routes its messages here).

  /** A batch of a run's events: recorded now, folded into the run store at the next frame. */
  receiveEvents = (events: RunEvent[]): void => {
    this.deps.withRecorder((recorder) => recorder.recordEvents(events));
    // Our own array: the recorder keeps the worker's.
    for (const event of events) this.pendingEvents.push(event);
    this.scheduleFlush();
  };

  private scheduleFlush(): void {
    if (this.flushScheduled !== 0) return;
    const generation = ++this.flushGeneration;
    this.flushScheduled = generation;
    const flush = () => this.flushFrame(generation);
    this.deps.nextFrame(flush);
    setTimeout(flush, EVENTS_FALLBACK_MS);
  }

  /** One frame's fold: as many events as fit in the budget (one store update); the rest at the next frame. */
  private flushFrame(generation: number): void {
    if (this.flushScheduled !== generation) return;
    this.flushScheduled = 0;
    const { now } = this.deps;
    const taken = this.deps.run.actions.applyEvents(this.pendingEvents, { now, deadline: now() + FLUSH_BUDGET_MS, slice: FLUSH_SLICE });
    this.pendingEvents = taken === this.pendingEvents.length ? [] : this.pendingEvents.slice(taken);
    if (this.pendingEvents.length > 0) this.scheduleFlush();
  }

  /** Applies every event that has arrived, whatever the budget; run first by anything that ends a run. */
  flushEvents = (): void => {
    this.flushScheduled = 0;
    const events = this.pendingEvents;
    this.pendingEvents = [];
    if (events.length > 0) this.deps.run.actions.applyEvents(events);
  };

  humanTurn(runId: string, turn: HumanTurn): void {
    this.flushEvents();
    this.deps.run.actions.humanTurn(runId, turn);
  }

  /** The worker's reply to a start: a run it refused ends here, before anything was called. */
  private started(runId: string, start: RunStart): void {
    if (start.ok) return;
    this.flushEvents();
    this.deps.run.actions.rejected(runId, start.problems);
  }

  runFailed(runId: string, message: string): void {
    this.flushEvents();
    this.deps.withRecorder((recorder) => recorder.abandonRecording(runId));
    this.deps.run.actions.failed(runId, message);
  }

  /** The worker was lost: the run in it is over, and so are the keys only it held. */
  workerLost(message: string): void {
    this.flushEvents();
    const lostRunId = this.deps.run.getState().pendingRunId;
    if (lostRunId) this.deps.withRecorder((recorder) => recorder.abandonRecording(lostRunId));
    this.deps.run.actions.workerLost(message);
    // Keys held only in the lost worker's memory are gone; remembered ones go to the next worker.
    this.deps.setup.actions.keysHeld([]);
    this.restoreRememberedKeys();
  }

  // Keys.

  /** Hands a key to the worker (null: forget it), bound to `origin`; the page then shows which
   * keys the worker holds. */
  private handKey(provider: string, key: string | null, origin: string | null): void {
    this.deps.worker.request('set_key', { provider, key, origin }).then((held) => this.deps.setup.actions.keysHeld(held), () => {});
  }

  private readRememberedKey(provider: string): RememberedKey | null {
    const stored = this.deps.localStorage().getItem(REMEMBERED_KEY_PREFIX + provider);
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

  private writeRememberedKey(provider: string, remembered: RememberedKey): void {
    this.deps.localStorage().setItem(REMEMBERED_KEY_PREFIX + provider, JSON.stringify(remembered));
  }

  /** Hands keys the user chose to remember on this device to the worker, each bound to its origin. */
  restoreRememberedKeys = (): void => {
    for (const provider of this.deps.setup.getState().rememberedProviders) {
      const remembered = this.readRememberedKey(provider);
      if (remembered) this.handKey(provider, remembered.key, remembered.origin);
      else this.deps.setup.actions.setRemembered(provider, false);
    }
  };

  /** The origin the draft sends a provider's requests to (undefined: none, or not a URL yet). */
  draftProviderOrigin = (provider: string): string | undefined => {
    const { providers } = this.deps.setup.getState().draft;
    return Object.hasOwn(providers, provider) ? providerOrigin(providers[provider]) : undefined;
  };

  /**
   * Gives a provider's key to the worker, which holds it in memory, bound to the origin of the
   * provider's base URL now. Only when `remember` is true is it also written to this browser's
   * localStorage; otherwise any stored copy is removed. Returns why it could not, or null.
   */
  setProviderKey = (provider: string, key: string | null, remember: boolean): string | null => {
    const trimmed = key?.trim() || null;
    const origin = this.draftProviderOrigin(provider);
    if (trimmed && origin === undefined) {
      return `Give "${provider}" a full base URL first: a key is sent only to the address it was entered for.`;
    }
    this.handKey(provider, trimmed, origin ?? null);
    if (remember && trimmed && origin) this.writeRememberedKey(provider, { key: trimmed, origin });
    else this.deps.localStorage().removeItem(REMEMBERED_KEY_PREFIX + provider);
    this.deps.setup.actions.setRemembered(provider, Boolean(remember && trimmed));
    return null;
  };

  /** The user agreed, in Setup, to send a held key to `to` (the provider's origin now) instead of the
   * origin it was entered for; a remembered copy moves with it. */
  bindKeyToOrigin = (provider: string, from: string | null, to: string): void => {
    this.deps.worker.request('bind_key', { provider, from, to }).then((held) => this.deps.setup.actions.keysHeld(held), () => {});
    const remembered = this.readRememberedKey(provider);
    if (remembered && remembered.origin === from) this.writeRememberedKey(provider, { key: remembered.key, origin: to });
  };

  // Runs.

  /** The config a run uses and an export writes: the draft with the current preferences and the
   * custom tools kept in this browser. */
  currentConfig = (): ConfigDraft => {
    const { vector, instructionEnabled } = this.deps.preferences.getState();
    const customTools = customToolsForConfig(this.deps.customTools);
    return {
      ...this.deps.setup.getState().draft,
      preference: vector,
      preferenceInstruction: instructionEnabled,
      ...(customTools.length > 0 ? { customTools } : {}),
    };
  };

  /** Starts a run of `task`; with `manual`, the person takes the orchestrator's turns; with
   * `domain`, it plays in that domain (workers/hosts/taskDomain.ts). A run the person starts ends
   * any comparison on screen. */
  startRun = (task: string, { manual = false, domain }: { manual?: boolean; domain?: string } = {}): StartOutcome => {
    if (this.deps.run.getState().phase !== 'idle') return 'busy';
    const outcome = this.launchRun(task, manual, undefined, domain || undefined);
    if (outcome === 'started') this.deps.comparison.actions.cleared();
    return outcome;
  };

  /** "Try the demo": the scripted demo's config replaces the draft (kept to go back to), a sample
   * task fills the task box (or the sample already there stays), and it runs under the current
   * preferences. Returns why it could not start, or null. */
  tryDemo = async (): Promise<string | null> => {
    const { run, setup, view } = this.deps;
    if (run.getState().phase !== 'idle') return 'A run is going on: stop it first.';
    try {
      const { DEMO_CONFIG, demoTask } = await import('./demoStart.ts');
      const task = await demoTask(view.getState().task, () => ++this.demoPicks);
      if (run.getState().phase !== 'idle') return 'A run is going on: stop it first.';
      setup.actions.startDemo(DEMO_CONFIG);
      view.actions.setTask(task);
      view.actions.openSideTab('task');
      this.startRun(task);
      return null;
    } catch (error) {
      return `The demo could not start: ${(error as Error).message}`;
    }
  };

  /** After a manual run: the configured orchestrator runs the same task, to compare with. */
  letOrchestratorTry = (): void => {
    const { run, manual, phase } = this.deps.run.getState();
    if (!manual || !run || run.status !== 'finished' || phase !== 'idle') return;
    if (this.launchRun(run.task, false) !== 'started') return;
    const { pendingRunId } = this.deps.run.getState();
    if (pendingRunId) this.deps.comparison.actions.started(run, pendingRunId);
  };

  /** Starts a run that goes on from a step of a stored run (the current config, the stored run's
   * steps 1..N kept as recorded: workers/engine/fork.ts), in the domain the stored run played in. */
  startForkedRun = (task: string, fork: ForkFrom, domain?: string): StartOutcome => {
    if (this.deps.run.getState().phase !== 'idle') return 'busy';
    return this.launchRun(task, false, fork, domain || undefined);
  };

  private launchRun(task: string, manual: boolean, fork?: ForkFrom, domain?: string): StartOutcome {
    const { run, checks } = this.deps;
    // Refusals leave the last run on screen: the person may still be reading it.
    const trimmed = task.trim();
    if (!trimmed) return 'empty_task';
    // As a run file may hold (workers/history/runFile.ts): what is recorded can be read back.
    if (trimmed.length > MAX_TASK_CHARS) return 'task_too_long';
    // The checks load right after the first screen, so they are here long before a Run; a Run
    // pressed in the first moments starts once they are.
    const loaded = checks.loaded();
    if (!loaded) {
      void checks.load().then(() => {
        if (run.getState().phase === 'idle') this.launchRun(task, manual, fork, domain);
      });
      return 'started';
    }
    const config = this.currentConfig();
    const check = loaded.checkDraft(config);
    if (!check.ok) {
      run.actions.refused(check.problems);
      return 'invalid_config';
    }
    if (manual && domain !== undefined) {
      run.actions.refused(['You can take the orchestrator’s turns without a domain only: choose "None" as the domain.']);
      return 'invalid_config';
    }
    if (manual && check.config.protocol !== 'paper') {
      run.actions.refused(['You can take the orchestrator’s turns in the paper protocol only: choose "Paper" above.']);
      return 'invalid_config';
    }
    const runId = newRunId();
    this.deps.compare.actions.close();
    run.actions.starting(runId, manual);
    this.deps.worker
      .request('start', { runId, config, task: trimmed, ...(manual ? { manual } : {}), ...(fork ? { fork } : {}), ...(domain === undefined ? {} : { domain }) })
      .then(
        (start) => this.started(runId, start),
        // The worker was lost: workerLost ends the run.
        () => {},
      );
    return 'started';
  }

  /** The person's choice for the turn a manual run is waiting on. */
  chooseTurn = (choice: HumanChoice): void => {
    const { pendingRunId, humanTurn } = this.deps.run.getState();
    if (!pendingRunId || !humanTurn) return;
    this.deps.run.actions.humanChose();
    this.deps.worker.tell('human_choice', { runId: pendingRunId, turnId: humanTurn.turnId, choice });
  };

  stopRun = (): void => {
    const { run, worker } = this.deps;
    const { phase, pendingRunId } = run.getState();
    if (!pendingRunId || (phase !== 'running' && phase !== 'starting')) return;
    run.actions.stopping();
    worker.tell('stop', { runId: pendingRunId });
    setTimeout(() => {
      const now = run.getState();
      if (now.pendingRunId !== pendingRunId || now.phase !== 'stopping') return;
      run.actions.forceStopped(pendingRunId);
      this.deps.withRecorder((recorder) => recorder.abandonRecording(pendingRunId));
      worker.restart('A run did not stop in time, so its worker was ended.');
    }, STOP_WATCHDOG_MS);
  };

  /** Why a file must not be written, or null: the last scan before an export, for every key the
   * worker holds (runs redact them as they record; a run kept before that, or imported, may not). */
  keysLeftIn = async (text: string | Blob): Promise<string | null> => {
    try {
      // No worker, no key in memory: nothing to find (a Blob is read in the worker, never copied here).
      const providers = this.deps.worker.started() ? await this.deps.worker.request('find_keys', { text }) : [];
      return providers.length === 0 ? null : keysLeftProblem(providers);
    } catch (error) {
      return `it could not be checked for API keys: ${(error as Error).message}.`;
    }
  };

  // The config file.

  /** The config file as the CLI reads it. It never contains a key: the format has no field for one. */
  exportConfigText = (): string => `${JSON.stringify(this.currentConfig(), null, 2)}\n`;

  /** Reads a config file off the page's thread; on success it replaces the draft and the
   * preferences, and its custom tools join the ones kept in this browser (replacing those of the
   * same name). */
  importConfigText = async (text: string, fileName: string): Promise<ImportOutcome> => {
    // Loaded right after the first screen; the kept preferences are read back before these replace them.
    await this.deps.checks.load();
    const read = await this.deps.readConfigFile(text);
    if (!read.ok) return read;
    const draft = read.draft as ConfigDraft;
    this.deps.customTools.actions.imported(read.customTools);
    const preference = draft.preference ?? 'balanced';
    const preferences = this.deps.preferences.actions;
    if (typeof preference === 'string') {
      const preset = preference as PreferencePresetName;
      preferences.load(PREFERENCE_PRESETS[preset], preset, draft.preferenceInstruction ?? true);
    } else {
      preferences.load({ ...preference, tools: preference.tools ?? {} }, 'custom', draft.preferenceInstruction ?? true);
    }
    this.deps.setup.actions.imported(draft, fileName);
    return { ok: true };
  };
}
