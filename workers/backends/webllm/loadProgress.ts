// One progress bar for a web-llm load. web-llm reports `{progress, timeElapsed, text}`, and
// `progress` starts again from 0 in each phase. Its texts (web-llm 0.2.86, tvmjs in its bundle):
//   "Start to fetch params"
//   "Fetching param cache[3/50]: 120MB fetched. 6% completed, 30 secs elapsed. It can take a while…"
//   "Loading model from cache[3/50]: 120MB loaded. 6% completed, 2 secs elapsed."
//   "Loading GPU shader modules[12/80]: 15% completed, 1 secs elapsed."
//   "Finish loading on WebGPU - <adapter>"
// Weights already in the browser cache skip "Fetching". The MB figures are rounded up to whole
// MiB, and `timeElapsed` to whole seconds (counted from the start of fetching for both the
// fetch and the load from cache, from the start of compiling for shaders).

import type { InitProgressReport } from '@mlc-ai/web-llm';

export type LoadPhase = 'starting' | 'downloading' | 'loading' | 'compiling' | 'ready';

export interface LoadProgress {
  phase: LoadPhase;
  /** The whole load, 0..1; never goes back. */
  fraction: number;
  /** The current phase alone, 0..1. */
  phaseFraction: number;
  /** Weights downloaded (downloading) or copied to the GPU (loading), to within 1 MiB. */
  bytesLoaded?: number;
  bytesTotal?: number;
  /** The rest of the current phase at its pace so far. */
  secondsLeft?: number;
  /** True once it is clear the weights came from the browser cache (no download). */
  fromCache: boolean;
  /** web-llm's own line, for a detail view. */
  text: string;
}

/** How much of the bar each phase takes. A presentation choice: downloading dominates a first
 * load; copying weights to the GPU dominates a load from cache; compiling shaders is shorter. */
const BAR: Record<'download' | 'cached', Record<'downloading' | 'loading' | 'compiling', [number, number]>> = {
  download: { downloading: [0, 0.85], loading: [0.85, 0.95], compiling: [0.95, 1] },
  cached: { downloading: [0, 0], loading: [0, 0.8], compiling: [0.8, 1] },
};

const MIB = 1024 * 1024;
const SHARDS = /^(Fetching param cache|Loading model from cache)\[(\d+)\/(\d+)\]: (\d+)MB/;
const SHADERS = /^Loading GPU shader modules\[(\d+)\/(\d+)\]/;

export interface LoadProgressTracker {
  update(report: InitProgressReport): LoadProgress;
  readonly current: LoadProgress;
}

/** `cached`: whether the weights are known to be in the browser cache (isModelCached), which
 * sets the bar's split from the first report; otherwise it is learnt along the way. */
export function createLoadProgressTracker(options: { cached?: boolean } = {}): LoadProgressTracker {
  let fromCache = options.cached === true;
  let sawDownload = false;
  let current: LoadProgress = { phase: 'starting', fraction: 0, phaseFraction: 0, fromCache, text: '' };
  let phase: LoadPhase = 'starting';
  let phaseStartedAt = 0;
  let downloadEndedAt = 0;

  const enter = (next: LoadPhase, startedAt: number) => {
    if (next === phase) return;
    phase = next;
    phaseStartedAt = startedAt;
  };

  return {
    get current() {
      return current;
    },
    update(report: InitProgressReport): LoadProgress {
      const text = report.text;
      const elapsed = Number.isFinite(report.timeElapsed) ? report.timeElapsed : 0;
      let bytesLoaded: number | undefined;
      let bytesTotal: number | undefined;
      const shards = SHARDS.exec(text);
      if (text.startsWith('Finish loading')) {
        enter('ready', elapsed);
      } else if (shards?.[1] === 'Fetching param cache') {
        sawDownload = true;
        fromCache = false;
        enter('downloading', 0);
        downloadEndedAt = elapsed;
      } else if (shards) {
        if (!sawDownload) fromCache = true;
        // Fetching and loading share one clock, started when fetching starts.
        enter('loading', downloadEndedAt);
      } else if (SHADERS.test(text)) {
        // The shader clock starts afresh.
        enter('compiling', 0);
      }
      const phaseFraction = phase === 'ready' ? 1 : phase === 'starting' ? 0 : clamp01(report.progress);
      if (shards) {
        bytesLoaded = Number(shards[4]) * MIB;
        if (phaseFraction > 0) bytesTotal = Math.max(bytesLoaded, Math.round(bytesLoaded / phaseFraction));
      }

      let fraction: number;
      if (phase === 'ready') fraction = 1;
      else if (phase === 'starting') fraction = 0;
      else {
        const [from, to] = BAR[fromCache ? 'cached' : 'download'][phase];
        fraction = from + (to - from) * phaseFraction;
      }
      const next: LoadProgress = {
        phase,
        fraction: Math.min(1, Math.max(current.fraction, fraction)),
        phaseFraction,
        fromCache,
        text,
      };
      if (bytesLoaded !== undefined) next.bytesLoaded = bytesLoaded;
      if (bytesTotal !== undefined) next.bytesTotal = bytesTotal;
      const spent = elapsed - phaseStartedAt;
      if (phaseFraction > 0 && phaseFraction < 1 && spent > 0) {
        next.secondsLeft = Math.round((spent * (1 - phaseFraction)) / phaseFraction);
      }
      current = next;
      return next;
    },
  };
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
