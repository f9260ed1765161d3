// Run files through the real CLI: `run --save` writes what was recorded (also on an error or
// Ctrl-C), and `replay` prints it exactly as `run` printed it, calling nothing.

import { parseConfig } from '../workers/hosts/config.ts';
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import type { RunEvent } from '../workers/engine/events.ts';
import { MAX_RUN_FILE_BYTES, readRunFile, type RunFile } from '../workers/history/runFile.ts';
import type { RunSummary } from './summary.ts';
import { saveRunFile } from './runFiles.ts';
import {
  interruptWhen,
  jsonLines,
  loadScenario,
  ORCHESTRATOR_MODEL,
  requestsFor,
  runCli,
  writeConfig,
  type CliResult,
  ROOT,
} from '../e2e/fixtures/cliHarness.ts';

const TASK = 'What is the population of the capital of Finland?';

const cli = useCliServer('cli-paper-server');

function configFor(scenario: string): string {
  cli.server.reset(loadScenario(scenario));
  return writeConfig(cli.dir, 'local-scripted.json', cli.server.url, (config) => {
    config.orchestrator.toolMode = 'server';
  }).path;
}

let saved = 0;
const savePath = () => join(cli.dir, `run-${++saved}.json`);

/** Replays `file` and checks that the server heard nothing of it. */
async function replay(args: string[]): Promise<CliResult> {
  cli.server.reset();
  const result = await runCli(['replay', ...args]);
  expect(cli.server.requests).toEqual([]);
  return result;
}

/** The repository's modules `entry` loads, transitively (type-only imports are erased, so left out). */
function modulesLoadedBy(entry: string, seen = new Set<string>()): Set<string> {
  seen.add(relative(ROOT, entry));
  const source = readFileSync(entry, 'utf8');
  for (const [, typeOnly, specifier] of source.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)'/gm)) {
    const target = resolve(dirname(entry), specifier!);
    if (!typeOnly && !seen.has(relative(ROOT, target))) modulesLoadedBy(target, seen);
  }
  return seen;
}

function readSaved(path: string): RunFile {
  return JSON.parse(readFileSync(path, 'utf8')) as RunFile;
}

describe('orchestra run --save and orchestra replay', () => {
  it('replay cannot call out: nothing it loads reaches a backend, a sandbox, a tool or prepareRun', () => {
    // Reading a run's config takes the registries' names (their descriptors: data, whose models
    // load only when a host asks), never a backend's code, a host or a sandbox.
    const callsOut = (path: string) =>
      /^(workers\/backends\/(?!registry\.ts$|[^/]+\/kind\.ts$|anthropic\/baseUrl\.ts$)|workers\/hosts\/(?!config\.ts$)|tools\/(?!toolNames\.ts$)|cli\/nodeEnvironment\.ts)/.test(path);
    expect([...modulesLoadedBy(join(ROOT, 'cli/replayCommand.ts'))].filter(callsOut)).toEqual([]);
    // The walk does find them where they are loaded.
    expect([...modulesLoadedBy(join(ROOT, 'cli/runCommand.ts'))].filter(callsOut)).toEqual(
      expect.arrayContaining(['workers/hosts/prepareRun.ts', 'cli/nodeEnvironment.ts', 'tools/python/nodePythonRunner.ts']),
    );
  });

  it('saves an answered run, and replays its trace line for line with no request', async () => {
    const file = savePath();
    const run = await runCli(['run', '--config', configFor('cli-paper-server'), '--task', TASK, '--save', file]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(`Saved the run to ${file} ("orchestra replay ${file}" prints it again).\n`);
    expect(run.stdout).toContain('→ search search-1 → scripted/searcher');
    expect(run.stdout).toMatch(/Answer\s+558,457/);

    const replayed = await replay([file]);
    expect(replayed.stderr).toBe('');
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(run.stdout);
  }, 60_000);

  it('saves the events --json prints, and replay --json prints them and the summary line again', async () => {
    const file = savePath();
    const run = await runCli(['run', '--config', configFor('cli-paper-server'), '--task', TASK, '--json', '--save', file]);
    expect(run.code).toBe(0);
    const lines = jsonLines<RunEvent | RunSummary>(run.stdout);
    const read = readRunFile(readFileSync(file, 'utf8'), parseConfig);
    expect(read.ok && read.runs).toEqual([{ id: lines[0]?.runId, events: lines.slice(0, -1) }]);

    const replayed = await replay([file, '--json']);
    expect(replayed.code).toBe(0);
    // The same lines, value for value (a checked event's keys come in the schema's order).
    expect(jsonLines(replayed.stdout)).toEqual(lines);
    expect(jsonLines<RunSummary>(replayed.stdout).at(-1)).toMatchObject({ type: 'summary', answer: '558,457', stopReason: 'answered' });
  }, 60_000);

  it('saves no key a reply echoed (as is, base64, URL-encoded, split across deltas), and writes no file that still holds one', async () => {
    const key = 'sk-cli/echo+Key=0123456789abcdef';
    const scenario = loadScenario('cli-paper-server');
    const echo = ' Authenticated as {{api_key}}, {{api_key_base64}}, {{api_key_url}}.';
    for (const response of [...scenario.models['scripted/searcher']!, ...scenario.models['scripted/answerer-mini']!]) {
      Object.assign(response, { content: response.content.replace('</', `${echo}</`), chunkSize: 4 });
    }
    cli.server.reset(scenario);
    const config = writeConfig(cli.dir, 'local-scripted.json', cli.server.url, (value) => {
      value.orchestrator.toolMode = 'server';
      value.providers.scripted!.apiKeyEnv = 'SCRIPTED_ECHO_KEY';
    }).path;
    const file = savePath();
    const run = await runCli(['run', '--config', config, '--task', TASK, '--json', '--save', file], { env: { SCRIPTED_ECHO_KEY: key } });
    expect(run.code).toBe(0);
    // The key was sent, and came back in the replies.
    expect(requestsFor(cli.server.requests, 'scripted/answerer-mini')[0]?.headers.authorization).toBe(`Bearer ${key}`);
    const saved = readFileSync(file, 'utf8');
    for (const text of [saved, run.stdout, run.stderr]) {
      for (const form of [key, Buffer.from(key).toString('base64').slice(0, 40), encodeURIComponent(key)]) expect(text).not.toContain(form);
    }
    expect(saved).toContain('[scripted API key removed]');
    expect(jsonLines<RunSummary>(run.stdout).at(-1)?.answer).toBe('558,457 Authenticated as [scripted API key removed], [scripted API key removed], [scripted API key removed].');

    // The last scan before writing: a log that holds a key is not written, and says whose.
    const refused = join(cli.dir, 'refused.json');
    const events = readSaved(file).runs[0]!.events.map((event) => (event.type === 'run_finished' ? { ...event, answer: `leaked ${key}` } : event));
    expect(() => saveRunFile(refused, [events], [{ provider: 'scripted', value: key }])).toThrow(/refused\.json" was not written: it holds the API key of "scripted"/);
    expect(existsSync(refused)).toBe(false);
  }, 60_000);

  it('saves a run that stops on an error (exit code 1), and replays its error and stop reason', async () => {
    const file = savePath();
    const run = await runCli(['run', '--config', configFor('cli-auth-failure'), '--task', TASK, '--save', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ Authentication failed: scripted refused the request (HTTP 401)');
    expect(run.stderr).toContain(`Saved the run to ${file}`);

    const replayed = await replay([file]);
    // Replay itself succeeded: its exit code is not the recorded run's.
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(run.stdout);
    expect(replayed.stdout).toMatch(/Stop reason\s+error\nError\s+scripted refused the request \(HTTP 401\)/);
  }, 60_000);

  it('saves what was recorded when Ctrl-C stops the run, and replays it as stopped by the user', async () => {
    const file = savePath();
    const config = configFor('cli-paper-server');
    cli.server.setFault({ kind: 'hang' });
    const run = await runCli(['run', '--config', config, '--task', TASK, '--save', file], {
      onSpawn: interruptWhen(() => requestsFor(cli.server.requests, ORCHESTRATOR_MODEL).length > 0),
    });
    cli.server.setFault(null);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain(`Saved the run to ${file}`);
    const events = readSaved(file).runs[0]!.events;
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['run_started', 'step_started', 'model_request', 'run_finished']));
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', stopReason: 'aborted' });

    const replayed = await replay([file]);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toBe(run.stdout);
    expect(replayed.stdout).toMatch(/Stop reason\s+stopped by the user/);
  }, 60_000);

  it('saves every rollout in one file; replay heads each run, and --run picks one', async () => {
    const file = savePath();
    const run = await runCli(['run', '--config', configFor('cli-paper-server'), '--task', TASK, '--rollouts', '2', '--json', '--save', file]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Saved 2 runs to ${file}`);
    const runs = readSaved(file).runs;
    expect(runs).toHaveLength(2);
    expect(runs[0]!.id).not.toBe(runs[1]!.id);

    const both = await replay([file]);
    expect(both.code).toBe(0);
    expect(both.stdout).toContain(`━━ Run 1/2 · ${runs[0]!.id} ━━`);
    expect(both.stdout).toContain(`━━ Run 2/2 · ${runs[1]!.id} ━━`);
    expect(both.stdout.match(/── Result ──/g)).toHaveLength(2);

    const second = await replay([file, '--run', runs[1]!.id, '--json']);
    expect(second.code).toBe(0);
    const lines = jsonLines<RunEvent | RunSummary>(second.stdout);
    expect(lines.slice(0, -1)).toEqual(runs[1]!.events);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', runId: runs[1]!.id });

    const missing = await replay([file, '--run', 'no-such-run']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`holds no run with the id "no-such-run"; its runs: ${runs[0]!.id}, ${runs[1]!.id}.`);
  }, 60_000);

  it('prints a log cut off before the run finished up to where it ends, and says so', async () => {
    const file = savePath();
    expect((await runCli(['run', '--config', configFor('cli-paper-server'), '--task', TASK, '--save', file])).code).toBe(0);
    const saved = readSaved(file);
    const events = saved.runs[0]!.events;
    const secondStep = events.findIndex((event) => event.type === 'step_started' && event.step === 2);
    saved.runs[0]!.events = events.slice(0, secondStep + 3);
    const cut = join(cli.dir, 'cut-off.json');
    writeFileSync(cut, JSON.stringify(saved));

    const replayed = await replay([cut]);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain('── Step 2 ──');
    expect(replayed.stdout).not.toContain('── Result ──');
    expect(replayed.stdout).toContain('── Interrupted ──\nThe log ends at step 2, before the run finished');

    // As JSON: the events there are and no summary line (there is no result); the note on stderr.
    const json = await replay([cut, '--json']);
    expect(json.code).toBe(0);
    expect(jsonLines<RunEvent>(json.stdout).map((event) => event.type)).toEqual(saved.runs[0]!.events.map((event) => event.type));
    expect(json.stderr).toContain('The log ends at step 2, before the run finished');
  }, 60_000);

  it('refuses a file it cannot read with the problem on stderr (exit code 2), and leaves out only what is wrong (exit code 1)', async () => {
    const file = savePath();
    expect((await runCli(['run', '--config', configFor('cli-paper-server'), '--task', TASK, '--rollouts', '2', '--save', file])).code).toBe(0);
    const text = readFileSync(file, 'utf8');

    const truncated = join(cli.dir, 'truncated.json');
    writeFileSync(truncated, text.slice(0, Math.floor(text.length / 2)));
    const badField = readSaved(file);
    (badField.runs[1]!.events[3] as unknown as Record<string, unknown>).step = 'three';
    const oneBad = join(cli.dir, 'one-bad.json');
    writeFileSync(oneBad, JSON.stringify(badField));
    badField.runs = [badField.runs[1]!];
    const allBad = join(cli.dir, 'all-bad.json');
    writeFileSync(allBad, JSON.stringify(badField));
    // Sparse: as large as it says, and never read (zeros would read as "not JSON").
    const huge = join(cli.dir, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, MAX_RUN_FILE_BYTES + 1);

    const [cutShort, leftOut, nothing, tooLarge, absent, noFile] = await Promise.all([
      replay([truncated]),
      replay([oneBad]),
      replay([allBad]),
      replay([huge]),
      replay([join(cli.dir, 'absent.json')]),
      replay([]),
    ]);
    expect(cutShort).toMatchObject({ code: 2, stdout: '' });
    expect(cutShort.stderr).toBe(
      `orchestra: Cannot replay "${truncated}":\n  - The file ends in the middle of its JSON: it was cut short (an unfinished download or copy?).\n`,
    );
    expect(nothing).toMatchObject({ code: 2, stdout: '' });
    expect(nothing.stderr).toMatch(/Cannot replay "[^"]+":\n {2}- runs\[0\]\.events\[3\]\.step: .*expected number, received string/);
    expect(tooLarge).toMatchObject({ code: 2, stdout: '' });
    expect(tooLarge.stderr).toContain('The file is 32.0 MB; run files are read up to 32 MB.');
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain('It cannot be read: no such file or folder.');
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('Name the run file to replay.');

    expect(leftOut.code).toBe(1);
    expect(leftOut.stderr).toMatch(new RegExp(`^orchestra: ${oneBad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: Left out: runs\\[1\\]\\.events\\[3\\]\\.step: `));
    expect(leftOut.stdout.match(/── Result ──/g)).toHaveLength(1);
    expect(leftOut.stdout).toMatch(/Answer\s+558,457/);
  }, 90_000);

  it('refuses a --save it could not write, or with a batch, before any call (exit code 2)', async () => {
    const config = configFor('cli-paper-server');
    const [noFolder, isFolder, withBatch] = await Promise.all([
      runCli(['run', '--config', config, '--task', TASK, '--save', join(cli.dir, 'no-such-folder', 'run.json')]),
      runCli(['run', '--config', config, '--task', TASK, '--save', cli.dir]),
      runCli(['run', '--config', config, '--tasks', 'tasks.jsonl', '--out', join(cli.dir, 'out.jsonl'), '--save', join(cli.dir, 'b.json')]),
    ]);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toContain(`Cannot write the run file "${join(cli.dir, 'no-such-folder', 'run.json')}": no such file or folder.`);
    expect(isFolder.code).toBe(2);
    expect(isFolder.stderr).toContain(`Cannot write the run file "${cli.dir}": it is a folder.`);
    expect(withBatch.code).toBe(2);
    expect(withBatch.stderr).toContain('--save only goes with --task.');
    expect(cli.server.requests).toEqual([]);
  }, 60_000);
});
