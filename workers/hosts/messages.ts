// The orchestrator worker's boundary: every message the page and the worker exchange (the page's
// requests, typed by OrchestratorRequests, each with its reply, and what the worker says unasked).
// Nothing else calls postMessage by hand — the page goes through app/worker/orchestratorClient.ts,
// the worker through workers/hosts/orchestrator.worker.ts (orchestratorHost.ts answers). Keys travel
// only in `set_key`, page → worker, and never come back: the worker answers with which providers
// have one and the origin each is bound to (workers/hosts/keys.ts), not with the keys.

import type { LoadProgress } from '../backends/webllm/loadProgress.ts';
import type { ForkFrom, RunEvent } from '../engine/events.ts';
import type { HumanChoice, HumanTurn } from '../engine/types.ts';
import type { HeldKey } from './keys.ts';
import type { LocalModelRequest, LocalModelsState } from './models/modelState.ts';
import type { BuiltInSuite } from '../eval/builtInSuites.ts';
import type { Tau2SuiteName } from '../domains/tau2/suiteNames.ts';
import type { PolicyDescription, RolloutRecord } from '../eval/results.ts';
import type { EvalOutcome, EvalProgressEvent } from '../eval/runner.ts';
import type { ReplyMessage, RequestMessage } from './requests.ts';

/** The suite an evaluation runs: a built-in one (τ²'s and ToolScale's among them), or a JSONL file
 * the user picked (its text, read by the page under the suite's size cap; the worker parses it). */
export type EvalSuiteInput = { kind: 'builtin'; name: BuiltInSuite | Tau2SuiteName } | { kind: 'file'; name: string; text: string };

/** A suite as the worker read it: what it holds, or every problem with its line. */
export type SuiteReading =
  | { ok: true; source: string; tasks: number; domains: string[]; checks: Record<string, number>; warnings: string[] }
  | { ok: false; problems: string[] };

/** An evaluation to run (workers/eval/runner.ts), with the CLI's `eval` options. */
export interface EvalRequest {
  evalId: string;
  /** The config file's JSON value, validated by the worker. */
  config: unknown;
  suite: EvalSuiteInput;
  /** Policy names as `--policy` takes them (workers/eval/policies.ts), sweeps spelled out. */
  policies: string[];
  rollouts: number;
  concurrency: number;
  budgetUsd: number | null;
  seed: string;
  /** Only the suite's first this many tasks (the CLI's `--limit`); absent: all of them. */
  limit?: number;
  /** Who plays a τ² suite's user: `scripted`, or an expert alias of the config (the CLI's
   * `--user`). Required by τ² and ToolScale suites, refused by others. */
  user?: string;
  /** Records an earlier session of this evaluation left: finished ones are skipped (resume). */
  previous: RolloutRecord[];
}

/** How an evaluation ended, without its records (the page has them from each rollout_finished). */
export type EvalEnd = Omit<EvalOutcome, 'records'>;
import type { GgufModelRequest } from './models/modelState.ts';

/** Whether a run could start: it did (its events follow), or it could not (an invalid config, a
 * domain that would not load), and nothing was called or charged. */
export type RunStart = { ok: true } | { ok: false; problems: string[] };

/** Which models' files are in the browser cache; `problem` when the cache could not be read or changed. */
export type ModelCacheReply = { cached: Record<string, boolean>; problem?: string };

/** Whether an evaluation could start: prepared (suite, domains, policies checked; its rollouts
 * follow, with their progress in the stream), or refused with every problem, nothing called. */
export type EvalStart =
  | { ok: true; source: string; taskIds: string[]; policies: PolicyDescription[]; rollouts: number }
  | { ok: false; problems: string[] };

/** Every request the page makes of the orchestrator worker: its body, and the reply its handler
 * in orchestratorHost.ts returns (workers/hosts/requests.ts carries them). A command whose
 * effects come in the stream below (FromWorker) replies with nothing. */
export type OrchestratorRequests = {
  /** Holds (or with `key: null` forgets) a provider's API key in the worker's memory, bound to the
   * origin it was entered for (null: a key remembered before keys were bound, bound to none).
   * Replies with which keys it holds now. */
  set_key: { body: { provider: string; key: string | null; origin: string | null }; reply: HeldKey[] };
  /** The user agreed to send a held key to `to`: it moves there if still bound to `from`. Replies
   * with which keys it holds now. */
  bind_key: { body: { provider: string; from: string | null; to: string }; reply: HeldKey[] };
  /** Starts a run. `config` is the config file's JSON value, validated by the worker. With
   * `manual`, the person takes the orchestrator's turns (each asked with `human_turn`); with
   * `fork`, it goes on from a stored run's step (workers/engine/fork.ts); with `domain`, it plays in
   * a domain (a built-in one's name, or a τ² or ToolScale suite's: workers/hosts/taskDomain.ts):
   * its policy, its tools over a fresh database, function calling. Replies once the run is
   * prepared (or refused); its events follow in the stream. */
  start: { body: { runId: string; config: unknown; task: string; manual?: boolean; fork?: ForkFrom; domain?: string }; reply: RunStart };
  /** The person's choice for the turn `human_turn` asked (checked by the worker). */
  human_choice: { body: { runId: string; turnId: string; choice: HumanChoice }; reply: void };
  stop: { body: { runId: string }; reply: void };
  /** Loads a model in this browser. `port` (transferred) leads to a model worker the page started
   * for it (workers/hosts/models/webllm.worker.ts); its engine runs there. */
  load_model: { body: { model: LocalModelRequest; contextWindow: number; port: MessagePort }; reply: void };
  /** Loads a GGUF model (llama.cpp) through a GGUF model worker the page started
   * (workers/hosts/models/gguf.worker.ts); `port` leads to it. */
  load_gguf: { body: { request: GgufModelRequest; port: MessagePort }; reply: void };
  cancel_load: { body: { modelId: string }; reply: void };
  unload_model: { body: { modelId: string }; reply: void };
  /** Which of these models' files are in the browser cache. */
  check_model_cache: { body: { models: LocalModelRequest[] }; reply: ModelCacheReply };
  /** Deletes a model's files from the browser cache; replies with it no longer cached. */
  delete_cached_model: { body: { model: LocalModelRequest }; reply: ModelCacheReply };
  /** Reads a suite and says what it holds; nothing runs. */
  read_suite: { body: { suite: EvalSuiteInput }; reply: SuiteReading };
  /** Starts an evaluation: replies once it is prepared (or refused); each rollout is then an
   * ordinary run whose events come in `eval_events`, its progress in `eval_progress`. */
  start_eval: { body: { request: EvalRequest }; reply: EvalStart };
  /** Stops an evaluation: the rollouts in flight are abandoned (not recorded). */
  stop_eval: { body: { evalId: string }; reply: void };
  /** The last scan of a file before it is written: the providers whose held key it holds (never
   * the key). */
  find_keys: { body: { text: string | Blob }; reply: string[] };
};

export type ToWorker = RequestMessage<OrchestratorRequests>;

export type FromWorker =
  /** Events of a run, oldest first, batched every EVENT_BATCH_MS so streaming costs the page a handful of renders a second. */
  | { type: 'events'; events: RunEvent[] }
  /** A manual run asks the person to take the orchestrator's turn (after posting every event
   * before it). */
  | { type: 'human_turn'; runId: string; turn: HumanTurn }
  /** The engine broke without finishing the run (a bug): the page says so instead of waiting. */
  | { type: 'run_failed'; runId: string; message: string }
  /** How a model's load is going: one bar across web-llm's phases. */
  | { type: 'model_progress'; modelId: string; progress: LoadProgress }
  /** The models loaded and loading, after every change, with the failure that caused it if any. */
  | { type: 'model_state'; state: LocalModelsState }
  /** The runner's progress; `rollout_finished` carries the rollout's graded record. */
  | { type: 'eval_progress'; evalId: string; event: EvalProgressEvent }
  /** The rollouts' run events, batched like `events`: the page keeps them in the run history
   * without showing them in the trace. */
  | { type: 'eval_events'; events: RunEvent[] }
  | { type: 'eval_finished'; evalId: string; end: EvalEnd }
  /** The evaluation broke without finishing (a bug): the page says so instead of waiting. */
  | { type: 'eval_failed'; evalId: string; message: string }
  /** The answer to one of the page's requests (OrchestratorRequests). */
  | ReplyMessage;

/** The messages of evaluations, which the page hands to the Evaluate tab's module. */
export type EvalFromWorker = Extract<FromWorker, { type: 'eval_progress' | 'eval_events' | 'eval_finished' | 'eval_failed' }>;

/** How long the worker gathers events before posting them: short enough to feel live, long
 * enough that 200 tokens/s of deltas cost the page a handful of renders per second. */
export const EVENT_BATCH_MS = 50;
