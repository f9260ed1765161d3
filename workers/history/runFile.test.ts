// The run file read back: real runs of the engine (against the scripted server) written and read,
// then every way a file can be wrong, each named where it is.

import { parseConfig } from '../hosts/config.ts';
import { describe, expect, it, vi } from 'vitest';
import { useSampleRuns, type RecordedRun } from '../../e2e/fixtures/recordedRun.ts';
import { RUN_LOG_SCHEMA_VERSION, type RunEvent } from '../engine/events.ts';
import { TASK_DOMAIN_GROUPS } from '../domains/taskDomainNames.ts';
import {
  MAX_DOMAIN_NAME_CHARS,
  MAX_RUN_FILE_BYTES,
  MAX_RUN_FILE_DEPTH,
  MAX_STEPS_PER_RUN,
  readRunFile,
  RUN_FILE_FORMAT,
  RUN_FILE_VERSION,
  runFileSizeProblem,
  writeRunFile,
  type ReadRunFileOutcome,
  type RunFileRun,
} from './runFile.ts';

const sample = useSampleRuns();

const runOf = (recorded: RecordedRun, name?: string): RunFileRun => ({
  id: recorded.result.runId,
  ...(name === undefined ? {} : { name }),
  events: recorded.events,
});

/** The file as plain JSON, to spoil. */
function fileJson(runs: RunFileRun[]): { format: unknown; version: unknown; runs: Array<{ id: unknown; events: Array<Record<string, unknown>> }> } {
  return JSON.parse(writeRunFile(runs)) as ReturnType<typeof fileJson>;
}

function expectRefused(outcome: ReadRunFileOutcome): string[] {
  if (outcome.ok) throw new Error(`expected the file to be refused, got ${outcome.runs.length} runs`);
  return outcome.problems;
}

function expectRead(outcome: ReadRunFileOutcome): Extract<ReadRunFileOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`expected the file to be read: ${outcome.problems.join('; ')}`);
  return outcome;
}

describe('the run file', () => {
  it('reads back exactly the runs it was written with, events in order', () => {
    expect(sample.answered.result.stopReason).toBe('answered');
    expect(sample.failed.result.stopReason).toBe('error');
    const runs = [runOf(sample.answered, 'Finland, balanced'), runOf(sample.failed)];
    const text = writeRunFile(runs, new Date('2026-03-01T12:00:00Z'));
    expect(JSON.parse(text)).toMatchObject({ format: RUN_FILE_FORMAT, version: RUN_FILE_VERSION, exportedAt: '2026-03-01T12:00:00.000Z' });

    const read = expectRead(readRunFile(text, parseConfig));
    expect(read.runs).toEqual(runs);
    expect(read.warnings).toEqual([]);
    expect(read.leftOut).toBe(0);
    expect(readRunFile(`\uFEFF${text}`, parseConfig)).toEqual(read);
    // The config survives: a fork can prepare a run from it again.
    const start = read.runs[0]!.events[0] as Extract<RunEvent, { type: 'run_started' }>;
    expect(start.config?.orchestrator.model).toBe('nvidia/Nemotron-Orchestrator-8B');
    expect(start.schemaVersion).toBe(RUN_LOG_SCHEMA_VERSION);
  });

  it('keeps the domain a run played in, and reads a run from before domains were recorded without one', () => {
    const [start, ...rest] = sample.answered.events as [Extract<RunEvent, { type: 'run_started' }>, ...RunEvent[]];
    const inDomain: RunFileRun = { id: sample.answered.result.runId, events: [{ ...start, domain: 'toolscale-railway' }, ...rest] };
    const read = expectRead(readRunFile(writeRunFile([inDomain]), parseConfig));
    expect(read.runs[0]!.events[0]).toMatchObject({ type: 'run_started', domain: 'toolscale-railway' });
    expect(start).not.toHaveProperty('domain');
    expect(expectRead(readRunFile(writeRunFile([runOf(sample.answered)]), parseConfig)).runs[0]!.events[0]).not.toHaveProperty('domain');
    // A domain that is not a name is refused where it is.
    const spoiled = fileJson([inDomain]);
    spoiled.runs[0]!.events[0]!.domain = 7;
    expect(expectRefused(readRunFile(JSON.stringify(spoiled), parseConfig)).join('\n')).toContain('runs[0].events[0].domain');
    // So is a megabyte of name, though it begins with a domain's; every domain's own name fits.
    spoiled.runs[0]!.events[0]!.domain = `toolscale-railway${'x'.repeat(1 << 20)}`;
    expect(expectRefused(readRunFile(JSON.stringify(spoiled), parseConfig))).toContain(
      `runs[0].events[0].domain: is longer than any domain's name (${MAX_DOMAIN_NAME_CHARS} characters)`,
    );
    for (const { value } of TASK_DOMAIN_GROUPS.flatMap((group) => group.options)) expect(value.length).toBeLessThanOrEqual(MAX_DOMAIN_NAME_CHARS);
  });

  it('says a file that is not JSON is not JSON', () => {
    const text = writeRunFile([runOf(sample.answered)]).replace(`"format":`, 'format:');
    expect(expectRefused(readRunFile(text, parseConfig))).toEqual([expect.stringMatching(/^The file is not JSON: .+/)]);
    expect(expectRefused(readRunFile('  \n', parseConfig))).toEqual(['The file is empty.']);
  });

  it('says a file cut anywhere was cut short, not that it is malformed', () => {
    const text = writeRunFile([runOf(sample.answered), runOf(sample.failed)]);
    // Inside strings, numbers, literals and between values alike.
    for (let cut = 1; cut < text.length - 2; cut += 89) {
      const problems = expectRefused(readRunFile(text.slice(0, cut), parseConfig));
      expect(problems, `cut at ${cut}: …${text.slice(cut - 20, cut)}`).toEqual([
        'The file ends in the middle of its JSON: it was cut short (an unfinished download or copy?).',
      ]);
    }
  });

  it('refuses a file over the size cap before parsing it, saying how large it is and what is allowed', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      // Valid JSON: only the cap can refuse it.
      const padded = writeRunFile([runOf(sample.answered)]).padEnd(MAX_RUN_FILE_BYTES + 1, ' ');
      expect(expectRefused(readRunFile(padded, parseConfig))).toEqual([
        `The file is 32.0 MB; run files are read up to 32 MB. Export fewer runs at a time.`,
      ]);
      // Fewer characters than the cap, more bytes: the cap is in bytes, as a file's size is.
      const accents = `${writeRunFile([{ ...runOf(sample.answered), name: 'é'.repeat(MAX_RUN_FILE_BYTES / 2) }])}`;
      expect(accents.length).toBeLessThan(MAX_RUN_FILE_BYTES);
      expect(expectRefused(readRunFile(accents, parseConfig))[0]).toMatch(/^The file is 32\.\d MB; run files are read up to 32 MB/);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect(runFileSizeProblem(MAX_RUN_FILE_BYTES)).toBeNull();
    expect(runFileSizeProblem(50 * 1048576)).toBe('The file is 50.0 MB; run files are read up to 32 MB. Export fewer runs at a time.');
  });

  it('says a JSON file of something else is not a run file', () => {
    const file = fileJson([runOf(sample.answered)]);
    file.format = 'orchestra-playground/config';
    expect(expectRefused(readRunFile(JSON.stringify(file), parseConfig))).toEqual([
      `file.format: is not "${RUN_FILE_FORMAT}": this is not a run file of the playground`,
    ]);
    expect(expectRefused(readRunFile('[1, 2]', parseConfig))).toEqual([expect.stringMatching(/^file: .*expected object/)]);
  });

  it('refuses a file of a newer version as such, whatever shape its runs have', () => {
    const file = fileJson([runOf(sample.answered)]) as Record<string, unknown>;
    file.version = RUN_FILE_VERSION + 1;
    file.runs = { byId: {} };
    expect(expectRefused(readRunFile(JSON.stringify(file), parseConfig))).toEqual([
      `The file is run-file version ${RUN_FILE_VERSION + 1}, made by a newer version of the playground; this one reads up to version ${RUN_FILE_VERSION}.`,
    ]);
  });

  it('leaves out a run recorded by a newer log version, with why, and keeps the others', () => {
    const file = fileJson([runOf(sample.answered), runOf(sample.failed)]);
    const newer = file.runs[1]!;
    newer.events[0]!.schemaVersion = RUN_LOG_SCHEMA_VERSION + 1;
    // A newer version may have changed an event's shape: still "newer", not "malformed".
    newer.events[1]!.step = { index: 1 };
    const read = expectRead(readRunFile(JSON.stringify(file), parseConfig));
    expect(read.runs).toEqual([runOf(sample.answered)]);
    expect(read.leftOut).toBe(1);
    expect(read.warnings).toEqual([
      `Left out: runs[1]: it was recorded by a newer version of the playground (run log version ${RUN_LOG_SCHEMA_VERSION + 1}; this one reads up to ${RUN_LOG_SCHEMA_VERSION}): update the playground to open it`,
    ]);
    // Alone in its file, the run leaves nothing to read: the file is refused with the same reason.
    file.runs = [newer];
    expect(expectRefused(readRunFile(JSON.stringify(file), parseConfig))).toEqual([expect.stringMatching(/^runs\[0\]: it was recorded by a newer version/)]);
  });

  it('migrates a version-0 log (no schemaVersion, config or preference) to the current version', () => {
    const file = fileJson([runOf(sample.answered)]);
    const start = file.runs[0]!.events[0]!;
    delete start.schemaVersion;
    delete start.config;
    delete start.preference;
    const read = expectRead(readRunFile(JSON.stringify(file), parseConfig));
    const [first, ...rest] = read.runs[0]!.events;
    expect(first).toEqual({ ...sample.answered.events[0], schemaVersion: RUN_LOG_SCHEMA_VERSION, config: null, preference: null });
    expect(rest).toEqual(sample.answered.events.slice(1));
    expect(read.warnings).toEqual([]);
  });

  it('names the path of a field of the wrong type', () => {
    const file = fileJson([runOf(sample.answered)]);
    expect(file.runs[0]!.events[3]).toHaveProperty('step');
    file.runs[0]!.events[3]!.step = 'three';
    expect(expectRefused(readRunFile(JSON.stringify(file), parseConfig))).toEqual([
      expect.stringMatching(/^runs\[0\]\.events\[3\]\.step: .*expected number, received string/),
    ]);

    const nested = fileJson([runOf(sample.answered)]);
    const finished = nested.runs[0]!.events.at(-1)!;
    expect(finished.type).toBe('run_finished');
    (finished.totals as Record<string, unknown>).costUsd = null;
    expect(expectRefused(readRunFile(JSON.stringify(nested), parseConfig))).toEqual([
      expect.stringMatching(new RegExp(`^runs\\[0\\]\\.events\\[${sample.answered.events.length - 1}\\]\\.totals\\.costUsd: `)),
    ]);
  });

  it('drops fields it does not know, in the file, a run and an event', () => {
    const file = fileJson([runOf(sample.answered)]) as ReturnType<typeof fileJson> & Record<string, unknown>;
    file.generator = 'someone else';
    (file.runs[0] as Record<string, unknown>).colour = 'red';
    file.runs[0]!.events[2]!.apiKey = 'sk-not-a-key';
    const read = expectRead(readRunFile(JSON.stringify(file), parseConfig));
    expect(read.runs).toEqual([runOf(sample.answered)]);
    expect(JSON.stringify(read.runs)).not.toContain('sk-not-a-key');
  });

  it('refuses an event of another run, and a run that is in the file twice', () => {
    const file = fileJson([runOf(sample.answered), runOf(sample.failed)]);
    file.runs[1]!.events[5]!.runId = 'someone-else';
    const read = expectRead(readRunFile(JSON.stringify(file), parseConfig));
    expect(read.runs.map((run) => run.id)).toEqual([sample.answered.result.runId]);
    expect(read.warnings).toEqual([`Left out: runs[1].events[5].runId: "someone-else" is not the run’s id "${sample.failed.result.runId}"`]);

    const twice = expectRead(readRunFile(writeRunFile([runOf(sample.answered), runOf(sample.failed), runOf(sample.answered, 'again')]), parseConfig));
    expect(twice.runs.map((run) => run.id)).toEqual([sample.answered.result.runId, sample.failed.result.runId]);
    expect(twice.warnings).toEqual([`Left out: runs[2].id: "${sample.answered.result.runId}" is the id of runs[0] too (a run is in the file twice?)`]);
  });

  it('keeps a run whose config cannot be read, without it, and says it cannot be forked', () => {
    const file = fileJson([runOf(sample.answered)]);
    (file.runs[0]!.events[0]!.config as Record<string, unknown>).protocol = 'telepathy';
    const read = expectRead(readRunFile(JSON.stringify(file), parseConfig));
    expect((read.runs[0]!.events[0] as Extract<RunEvent, { type: 'run_started' }>).config).toBeNull();
    expect(read.runs[0]!.events.slice(1)).toEqual(sample.answered.events.slice(1));
    expect(read.leftOut).toBe(0);
    expect(read.warnings).toEqual([expect.stringMatching(/^runs\[0\]: its config could not be read \(protocol: .+\), so it cannot be run again from a step\.$/)]);
  });

  it('lists at most 20 problems, then how many more', () => {
    const file = fileJson([runOf(sample.answered)]);
    file.runs = Array.from({ length: 25 }, (_, i) => ({ id: `run-${i}`, events: [] }));
    const problems = expectRefused(readRunFile(JSON.stringify(file), parseConfig));
    expect(problems).toHaveLength(21);
    expect(problems[0]).toBe('runs[0].events: is empty');
    expect(problems[20]).toBe('…and 5 more');
    file.runs = [];
    expect(expectRefused(readRunFile(JSON.stringify(file), parseConfig))).toEqual(['The file holds no runs.']);
  });

  it('refuses a file nested past its bound before parsing it (100,000 deep is 200 KB), and reads the deepest a run needs', () => {
    const file = fileJson([runOf(sample.answered)]);
    const deep = JSON.stringify(file).replace('"config":', `"config":${'['.repeat(100_000)}${']'.repeat(100_000)},"was":`);
    expect(expectRefused(readRunFile(deep, parseConfig))).toEqual([`The file is nested more than ${MAX_RUN_FILE_DEPTH} levels deep; no file of this kind is.`]);
    // A tool schema 64 levels of values deep, as toolSchema.ts allows, sits inside the bound.
    const started = file.runs[0]!.events[0]!;
    let value: unknown = 'leaf';
    for (let level = 0; level < 64; level++) value = { v: value };
    started.tools = [{ name: 'deep', description: 'x', parameters: { type: 'object', properties: { v: { default: value } } } }];
    expectRead(readRunFile(JSON.stringify(file), parseConfig));
  });

  it('refuses a run of more steps than the trace lists', () => {
    const id = 'many-steps';
    const events: Array<Record<string, unknown>> = [{ ...fileJson([runOf(sample.answered)]).runs[0]!.events[0]!, runId: id }];
    for (let step = 1; step <= MAX_STEPS_PER_RUN + 1; step++) events.push({ runId: id, t: step, type: 'step_started', step });
    const problems = expectRefused(readRunFile(JSON.stringify({ format: RUN_FILE_FORMAT, version: 1, runs: [{ id, events }] }), parseConfig));
    expect(problems).toEqual([`runs[0].events[${MAX_STEPS_PER_RUN + 1}]: the run has more than 100,000 steps`]);
  });
});
