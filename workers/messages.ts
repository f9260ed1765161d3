// The orchestrator worker's boundary: every message the page and the worker exchange. Nothing else
// calls postMessage by hand — the page goes through app/worker/orchestratorClient.ts, the worker
// through workers/orchestrator.worker.ts. Keys travel only in `set_key`, page → worker, and never
// come back: the worker answers with which providers have one, not with the keys.

import type { RunEvent } from './engine/events.ts';

export type ToWorker =
  /** Holds (or with `key: null` forgets) a provider's API key in the worker's memory. */
  | { type: 'set_key'; provider: string; key: string | null }
  /** Starts a run. `config` is the config file's JSON value, validated by the worker. */
  | { type: 'start'; runId: string; config: unknown; task: string }
  | { type: 'stop'; runId: string };

export type FromWorker =
  /** Events of a run, oldest first. Deltas are batched so the page re-renders at most once a frame. */
  | { type: 'events'; events: RunEvent[] }
  /** The run could not start (an invalid config): nothing was called or charged. */
  | { type: 'run_rejected'; runId: string; problems: string[] }
  /** The engine broke without finishing the run (a bug): the page says so instead of waiting. */
  | { type: 'run_failed'; runId: string; message: string }
  /** The providers whose key the worker holds, after any `set_key`. */
  | { type: 'keys'; providers: string[] };

/** How long the worker gathers events before posting them: short enough to feel live, long
 * enough that 200 tokens/s of deltas cost the page a handful of renders per second. */
export const EVENT_BATCH_MS = 50;
