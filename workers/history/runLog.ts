// A run's stored form is its event log: the very events the engine emitted, in order. History,
// run files and the CLI's --save keep it; every view of a stored run (the trace, replay, compare)
// is a fold of it. This module holds what is true of a log whatever keeps it: its version and the
// migration of older ones, and the summary a history list shows without reading the events.
// Pure TypeScript: the page, workers and the CLI use it.

import { RUN_LOG_SCHEMA_VERSION, type ProtocolName, type RunEvent, type StopReason } from '../engine/events.ts';
import { PREFERENCE_PRESETS, type PreferencePresetName, type PreferenceVector } from '../engine/preferences.ts';
import type { RunResult } from '../engine/run.ts';

/** What a history list shows of a run, kept beside its events and updated as they arrive. */
export interface RunSummary {
  id: string;
  /** The user's name for the run; the task stands for it when absent. */
  name?: string;
  task: string;
  /** ISO time the run started. */
  startedAt: string;
  protocol: ProtocolName;
  orchestratorModel: string;
  preference: PreferenceVector | null;
  /** The preset the vector equals, if any. */
  preset: PreferencePresetName | null;
  /** `running` while events arrive; a stored run still `running` when no tab records it was cut
   * off (the tab or the browser closed): it shows as interrupted. */
  status: 'running' | 'finished';
  stopReason: StopReason | null;
  answer: string | null;
  costUsd: number;
  latencyMs: number;
  /** Steps begun. */
  steps: number;
  parent?: { runId: string; step: number };
  /** The domain the run played in (run_started's), if any. */
  domain?: string;
  events: number;
}

/** The summary after `events` (the run's, in order) are appended to a log summarised as `summary`. */
export function summarize(summary: RunSummary | null, events: readonly RunEvent[]): RunSummary | null {
  let next = summary;
  for (const event of events) {
    if (event.type === 'run_started') {
      next = {
        id: event.runId,
        task: event.task,
        startedAt: event.startedAt,
        protocol: event.protocol,
        orchestratorModel: event.orchestratorModel,
        preference: event.preference,
        preset: presetOf(event.preference),
        status: 'running',
        stopReason: null,
        answer: null,
        costUsd: 0,
        latencyMs: event.t,
        steps: 0,
        ...(event.parent ? { parent: event.parent } : {}),
        ...(event.domain ? { domain: event.domain } : {}),
        events: 1,
      };
      continue;
    }
    if (!next || event.runId !== next.id) continue;
    next = { ...next, events: next.events + 1, latencyMs: Math.max(next.latencyMs, event.t) };
    if (event.type === 'step_started') next.steps = Math.max(next.steps, event.step);
    else if (event.type === 'usage') next.costUsd = event.totalUsd;
    else if (event.type === 'run_finished') {
      next.status = 'finished';
      next.stopReason = event.stopReason;
      next.answer = event.answer;
      next.costUsd = event.totals.costUsd;
      next.latencyMs = event.totals.latencyMs;
    }
  }
  return next;
}

export function presetOf(vector: PreferenceVector | null): PreferencePresetName | null {
  if (!vector || Object.keys(vector.tools).length > 0) return null;
  const match = Object.entries(PREFERENCE_PRESETS).find(
    ([, preset]) => preset.outcome === vector.outcome && preset.cost === vector.cost && preset.latency === vector.latency,
  );
  return (match?.[0] as PreferencePresetName | undefined) ?? null;
}

export type MigrateOutcome = { ok: true; events: RunEvent[] } | { ok: false; problem: string };

/** Why a log that begins with `first` was recorded by a newer version than this one reads, or
 * null. Readers ask before checking the events: a newer version's events may have another shape,
 * and "update the playground" is the one useful thing to say about them. */
export function newerLogProblem(first: unknown): string | null {
  const version = (first as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (typeof version !== 'number' || !(version > RUN_LOG_SCHEMA_VERSION)) return null;
  return `it was recorded by a newer version of the playground (run log version ${version}; this one reads up to ${RUN_LOG_SCHEMA_VERSION}): update the playground to open it`;
}

/**
 * Brings a stored log to RUN_LOG_SCHEMA_VERSION, or says why it cannot: a log recorded by a newer
 * version is refused whole (never half-shown). Version 0 is the form before logs were stored:
 * run_started had no version, config or preference.
 */
export function migrateRunLog(events: readonly RunEvent[]): MigrateOutcome {
  const first = events[0];
  if (first?.type !== 'run_started') return { ok: false, problem: 'it does not begin with the run’s start (run_started)' };
  const version = (first as { schemaVersion?: unknown }).schemaVersion ?? 0;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return { ok: false, problem: `its schemaVersion (${JSON.stringify(version)}) is not a version number` };
  }
  const newer = newerLogProblem(first);
  if (newer !== null) return { ok: false, problem: newer };
  // An absent config or preference reads as none, in any version: the run was not started from one.
  const start = { ...first, schemaVersion: RUN_LOG_SCHEMA_VERSION, config: first.config ?? null, preference: first.preference ?? null };
  return { ok: true, events: [start, ...events.slice(1)] };
}

/** What the run returned, read back from its log; null while the log has no run_finished (the
 * run is going on, or was cut off). */
export function resultOf(events: readonly RunEvent[]): RunResult | null {
  const finished = events.findLast((event) => event.type === 'run_finished');
  if (finished?.type !== 'run_finished') return null;
  return { runId: finished.runId, stopReason: finished.stopReason, answer: finished.answer, totals: finished.totals };
}

/** The steps of a log, as [index of its step_started, step number], in order. */
export function stepStarts(events: readonly RunEvent[]): Array<[number, number]> {
  const starts: Array<[number, number]> = [];
  events.forEach((event, index) => {
    if (event.type === 'step_started') starts.push([index, event.step]);
  });
  return starts;
}
