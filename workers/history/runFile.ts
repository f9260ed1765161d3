// The run file: one run, a selection or a whole history as one JSON document, written by the
// playground's export and the CLI's `--save`, read by the playground's import and `orchestra
// replay`. A file is untrusted: it is read with caps on its size and counts, every event is
// checked against the event types (unknown fields are dropped), each run's log is migrated or
// refused, and every problem names where it is ("runs[2].events[14].step: expected a number").
// Keys are never in it: events carry none and configs have no field for one.

import { ConfigError, type OrchestraConfig } from '../engine/config.ts';
import { MAX_TASK_CHARS, type RunEvent } from '../engine/events.ts';
import { MAX_USER_TURN_CALLS } from '../engine/callLimits.ts';
import { formatCount } from '../engine/format.ts';
import { endsInsideValue, nestingProblem } from '../engine/jsonDepth.ts';
import { preferenceSchema } from '../engine/preferenceSchema.ts';
import { z } from '../engine/zod.ts';
import { migrateRunLog, newerLogProblem } from './runLog.ts';

export const RUN_FILE_FORMAT = 'orchestra-playground/runs';
export const RUN_FILE_VERSION = 1;

/** Larger files are refused before parsing (a 500-step run is about 1 MB: docs/benchmarks.md). */
export const MAX_RUN_FILE_BYTES = 32 * 1024 * 1024;
export const MAX_RUNS_PER_FILE = 10_000;
export const MAX_EVENTS_PER_RUN = 200_000;
/** Steps of one run: the trace and the cost panel list them (a 500-step run is already long). */
export const MAX_STEPS_PER_RUN = 100_000;
/** Levels of nesting: a run's deepest legitimate part, a tool's schema in run_started (64 levels
 * of values, toolSchema.ts), sits about 70 deep. Deeper text is refused before it is parsed. */
export const MAX_RUN_FILE_DEPTH = 128;
/** A run's domain name ("toolscale-ecommerce" is one of the longest). */
export const MAX_DOMAIN_NAME_CHARS = 64;
/** Problems listed before "and N more". */
const MAX_PROBLEMS = 20;

export interface RunFileRun {
  id: string;
  name?: string;
  events: RunEvent[];
}

export interface RunFile {
  format: typeof RUN_FILE_FORMAT;
  version: number;
  exportedAt: string;
  runs: RunFileRun[];
}

export function writeRunFile(runs: readonly RunFileRun[], exportedAt = new Date()): string {
  const file: RunFile = { format: RUN_FILE_FORMAT, version: RUN_FILE_VERSION, exportedAt: exportedAt.toISOString(), runs: [...runs] };
  return `${JSON.stringify(file)}\n`;
}

export type ReadRunFileOutcome =
  /** `leftOut`: how many runs of the file could not be read (each has a "Left out:" warning). */
  | { ok: true; runs: RunFileRun[]; warnings: string[]; leftOut: number }
  | { ok: false; problems: string[] };

/** Why a file of this many bytes is not read, or null. Callers that know the size before reading
 * (a File, a stat) ask first; readRunFile asks again of the text. */
export function runFileSizeProblem(bytes: number): string | null {
  if (bytes <= MAX_RUN_FILE_BYTES) return null;
  return `The file is ${(bytes / 1048576).toFixed(1)} MB; run files are read up to ${MAX_RUN_FILE_BYTES / 1048576} MB. Export fewer runs at a time.`;
}

const finite = z.number().refine(Number.isFinite, 'must be a finite number');
const count = z.number().int().nonnegative();
const step = z.number().int().min(1);
const text = z.string();
const json = z.unknown();

const usageSchema = z.object({
  promptTokens: count,
  completionTokens: count,
  cachedPromptTokens: count.optional(),
  cacheWritePromptTokens: count.optional(),
  reasoningTokens: count.optional(),
  costUsd: finite.optional(),
  prefillTokensPerSecond: finite.optional(),
  decodeTokensPerSecond: finite.optional(),
});
const toolSchemaSchema = z.object({ name: text, description: text, parameters: z.record(z.string(), json) });
const callRequestSchema = z.object({ id: text, name: text, arguments: z.record(z.string(), json) });
const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: text }),
  z.object({ role: z.literal('user'), content: text }),
  z.object({ role: z.literal('assistant'), content: text, toolCalls: z.array(callRequestSchema).optional() }),
  z.object({ role: z.literal('tool'), content: text, toolCallId: text, name: text }),
]);
const stopReasonSchema = z.enum(['answered', 'final_message', 'max_turns', 'max_cost', 'max_time', 'aborted', 'invalid_output', 'error']);
const ledgerEntrySchema = z.object({
  step: count,
  callId: text.optional(),
  kind: z.enum(['orchestrator', 'expert', 'code', 'search', 'tool', 'user']),
  model: text.optional(),
  alias: text.optional(),
  tool: text.optional(),
  usage: usageSchema.optional(),
  usd: finite.nullable(),
  basis: z.enum(['measured', 'estimated']),
  source: z.enum(['provider', 'pricing', 'rate']),
  latencyMs: finite,
  endMs: finite.optional(),
  startup: z.object({ sandbox: text, ms: finite }).optional(),
  counterfactualUsd: finite.nullable().optional(),
});
const totalsSchema = z.object({
  costUsd: finite,
  unknownCostEntries: count,
  hasEstimates: z.boolean(),
  counterfactualUsd: finite.nullable(),
  latencyMs: finite,
  toolLatencyMs: finite,
  turns: count,
  toolCounts: z.object({ tools: z.record(z.string(), count), aliases: z.record(z.string(), count) }),
  promptTokens: count,
  completionTokens: count,
  userCostUsd: finite.optional(),
});
const base = { runId: text, t: finite };

const eventSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('run_started'),
    // Absent in logs older than version 1 (migrated on read).
    schemaVersion: z.number().optional(),
    task: text.max(MAX_TASK_CHARS, `is longer than a run's task may be (${formatCount(MAX_TASK_CHARS)} characters)`),
    protocol: z.enum(['paper', 'function-calling', 'direct']),
    orchestratorModel: text,
    // "A scripted demo, not a model": kept, so a demo run never passes for a model's once imported.
    orchestratorNotice: text.optional(),
    tools: z.array(toolSchemaSchema),
    instruction: text.nullable(),
    limits: z.object({ maxTurns: count, maxCostUsd: finite.nullable(), maxWallMs: finite.nullable() }),
    pricingAsOf: text,
    counterfactualModel: text.nullable(),
    startedAt: z.iso.datetime({ offset: true }),
    config: json.optional(),
    preference: preferenceSchema.nullable().optional(),
    parent: z.object({ runId: text, step: count }).optional(),
    // Absent in files older than the Task tab's domains, and in runs that played in none. A name,
    // shown and checked against the domains by History's Run again: never longer than a domain's.
    domain: text.max(MAX_DOMAIN_NAME_CHARS, `is longer than any domain's name (${MAX_DOMAIN_NAME_CHARS} characters)`).optional(),
  }),
  z.object({ ...base, type: z.literal('step_started'), step }),
  z.object({
    ...base,
    type: z.literal('user_turn'),
    step,
    content: text.nullable(),
    toolCalls: z
      .array(z.object({ name: text, arguments: z.record(z.string(), json), result: text, error: z.boolean() }))
      .max(MAX_USER_TURN_CALLS, `holds more than the ${MAX_USER_TURN_CALLS} calls a simulated user's turn may make`),
    model: text.nullable(),
    promptTokens: count,
    completionTokens: count,
    costUsd: finite.nullable(),
  }),
  z.object({
    ...base,
    type: z.literal('model_request'),
    step,
    messages: z.array(messageSchema),
    tools: z.array(toolSchemaSchema),
    toolMode: z.enum(['server', 'prompt']),
    renderedPrompt: text,
  }),
  z.object({ ...base, type: z.literal('reasoning_delta'), step, callId: text.optional(), text }),
  z.object({ ...base, type: z.literal('content_delta'), step, callId: text.optional(), text }),
  z.object({
    ...base,
    type: z.literal('model_output'),
    step,
    raw: text,
    reasoning: text,
    message: text,
    calls: z.array(z.object({ id: text, name: text, arguments: z.record(z.string(), json), origin: z.enum(['text', 'server', 'think']), raw: text.optional() })),
    rejected: z.array(z.object({ raw: text, reason: text })),
    finishReason: z.enum(['stop', 'length', 'tool_calls', 'abort', 'error', 'unknown']),
    latencyMs: finite,
    timeToFirstTokenMs: finite.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('tool_call'),
    step,
    callId: text,
    name: text,
    arguments: z.record(z.string(), json),
    alias: text.optional(),
    model: text.optional(),
    offered: z.array(text),
    parentCallId: text.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('tool_result'),
    step,
    callId: text,
    name: text,
    ok: z.boolean(),
    content: text,
    // Absent when the call failed before its work gave any (JSON drops an undefined field).
    detail: json.optional(),
    error: text.optional(),
    latencyMs: finite,
    parentCallId: text.optional(),
  }),
  z.object({ ...base, type: z.literal('usage'), step: count, entry: ledgerEntrySchema, totalUsd: finite }),
  z.object({ ...base, type: z.literal('retry'), step: count, callId: text.optional(), attempt: count, waitMs: finite, reason: text }),
  z.object({ ...base, type: z.literal('step_finished'), step, costUsd: finite, latencyMs: finite, cumulativeUsd: finite }),
  z.object({ ...base, type: z.literal('error'), step: count.optional(), callId: text.optional(), code: text, message: text, fatal: z.boolean() }),
  z.object({ ...base, type: z.literal('run_finished'), stopReason: stopReasonSchema, answer: text.nullable(), totals: totalsSchema }),
]);

// Read first: a newer version's file may have another shape, and saying so is what helps.
const headerSchema = z.object({
  format: z.literal(RUN_FILE_FORMAT, { error: `is not "${RUN_FILE_FORMAT}": this is not a run file of the playground` }),
  version: z.number().int().min(1),
});

const envelopeSchema = headerSchema.extend({
  exportedAt: text.optional(),
  runs: z.array(z.unknown()).max(MAX_RUNS_PER_FILE, `holds more than ${formatCount(MAX_RUNS_PER_FILE)} runs`),
});

const runHeadSchema = z.object({
  id: text.min(1).max(200),
  name: text.max(500).optional(),
  events: z.array(z.unknown()).min(1, 'is empty').max(MAX_EVENTS_PER_RUN, `holds more than ${formatCount(MAX_EVENTS_PER_RUN)} events`),
});

function where(prefix: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`), prefix);
}

function problemsOf(prefix: string, error: z.ZodError): string[] {
  return error.issues.map((issue) => `${where(prefix, issue.path)}: ${issue.message}`);
}

/** Checks a run's config as the host reads configs (workers/hosts/config.ts's parseConfig). */
export type ConfigReader = (value: unknown) => OrchestraConfig;

/** Reads a run file's text. Runs that cannot be read are left out, each with its reasons; the
 * file as a whole fails only when nothing in it can be read. Each run's config is checked with
 * `parseConfig`; one that does not pass is dropped with a warning (the run stays). */
export function readRunFile(content: string, parseConfig: ConfigReader): ReadRunFileOutcome {
  // UTF-8 takes at most 3 bytes per UTF-16 unit, so shorter text needs no counting.
  const tooLarge = runFileSizeProblem(content.length * 3 > MAX_RUN_FILE_BYTES ? utf8Bytes(content) : content.length);
  if (tooLarge !== null) return { ok: false, problems: [tooLarge] };
  if (content.trim() === '') return { ok: false, problems: ['The file is empty.'] };
  const tooDeep = nestingProblem(content, MAX_RUN_FILE_DEPTH);
  if (tooDeep !== null) return { ok: false, problems: [`The file is ${tooDeep}.`] };
  let parsed: unknown;
  try {
    // A byte-order mark (an editor's, on Windows) is no part of the JSON; Node's reader keeps it.
    parsed = JSON.parse(content.charCodeAt(0) === 0xfeff ? content.slice(1) : content);
  } catch (error) {
    return {
      ok: false,
      problems: [
        endsInsideValue(content)
          ? 'The file ends in the middle of its JSON: it was cut short (an unfinished download or copy?).'
          : `The file is not JSON: ${(error as Error).message}`,
      ],
    };
  }
  const header = headerSchema.safeParse(parsed);
  if (!header.success) return { ok: false, problems: capped(problemsOf('file', header.error)) };
  if (header.data.version > RUN_FILE_VERSION) {
    return { ok: false, problems: [`The file is run-file version ${header.data.version}, made by a newer version of the playground; this one reads up to version ${RUN_FILE_VERSION}.`] };
  }
  const envelope = envelopeSchema.safeParse(parsed);
  if (!envelope.success) return { ok: false, problems: capped(problemsOf('file', envelope.error)) };

  const runs: RunFileRun[] = [];
  const problems: string[] = [];
  const warnings: string[] = [];
  const ids = new Map<string, number>();
  let leftOut = 0;
  envelope.data.runs.forEach((value, index) => {
    const read = readRun(value, `runs[${index}]`, ids, parseConfig);
    if ('problems' in read) {
      problems.push(...read.problems);
      leftOut += 1;
      return;
    }
    ids.set(read.run.id, index);
    runs.push(read.run);
    if (read.warning !== undefined) warnings.push(read.warning);
  });
  if (runs.length === 0) {
    return { ok: false, problems: problems.length > 0 ? capped(problems) : ['The file holds no runs.'] };
  }
  return { ok: true, runs, warnings: [...capped(problems).map((problem) => `Left out: ${problem}`), ...warnings], leftOut };
}

/** One run of a file, at `at`, given the ids of the runs read before it. */
function readRun(value: unknown, at: string, ids: ReadonlyMap<string, number>, parseConfig: ConfigReader): { run: RunFileRun; warning?: string } | { problems: string[] } {
  const head = runHeadSchema.safeParse(value);
  if (!head.success) return { problems: problemsOf(at, head.error) };
  const { id, name } = head.data;
  const earlier = ids.get(id);
  if (earlier !== undefined) return { problems: [`${at}.id: "${id}" is the id of runs[${earlier}] too (a run is in the file twice?)`] };
  const newer = newerLogProblem(head.data.events[0]);
  if (newer !== null) return { problems: [`${at}: ${newer}`] };
  const events: RunEvent[] = [];
  let steps = 0;
  for (const [eventIndex, raw] of head.data.events.entries()) {
    const event = eventSchema.safeParse(raw);
    if (!event.success) return { problems: problemsOf(`${at}.events[${eventIndex}]`, event.error).slice(0, 3) };
    if (event.data.type === 'step_started' && ++steps > MAX_STEPS_PER_RUN) {
      return { problems: [`${at}.events[${eventIndex}]: the run has more than ${formatCount(MAX_STEPS_PER_RUN)} steps`] };
    }
    if (event.data.runId !== id) {
      return { problems: [`${at}.events[${eventIndex}].runId: "${event.data.runId}" is not the run’s id "${id}"`] };
    }
    events.push(event.data as RunEvent);
  }
  const migrated = migrateRunLog(events);
  if (!migrated.ok) return { problems: [`${at}: ${migrated.problem}`] };
  const run: RunFileRun = { id, ...(name === undefined ? {} : { name }), events: migrated.events };
  const first = migrated.events[0] as Extract<RunEvent, { type: 'run_started' }>;
  if (first.config === null) return { run };
  try {
    first.config = parseConfig(first.config);
    return { run };
  } catch (error) {
    // The trace does not need it; only a fork does.
    first.config = null;
    const detail = error instanceof ConfigError ? error.problems[0] : (error as Error).message;
    return { run, warning: `${at}: its config could not be read (${detail}), so it cannot be run again from a step.` };
  }
}

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function capped(problems: string[]): string[] {
  return problems.length <= MAX_PROBLEMS ? problems : [...problems.slice(0, MAX_PROBLEMS), `…and ${problems.length - MAX_PROBLEMS} more`];
}
