// Batches: bounded concurrency, one appended line per finished task, resume, and Ctrl-C.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scripted/scriptedServer.ts';
import type { BatchLine } from './batch.ts';
import { interruptWhen, jsonLines, loadScenario, makeTempDir, ORCHESTRATOR_MODEL, requestsFor, runCli, writeConfig } from '../e2e/fixtures/cliHarness.ts';

const TASKS = [
  { id: 'fin', question: 'What is the population of the capital of Finland?', answer: '558,457' },
  { id: 'rou', question: 'What is the population of the capital of Romania?', answer: '1,877,155' },
  { id: 'omn', question: 'What is the population of the capital of Oman?', answer: '797,000' },
];

const dir = makeTempDir();
const tasksPath = join(dir, 'tasks.jsonl');
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer({ scenario: loadScenario('cli-batch') });
  writeFileSync(tasksPath, `${TASKS.map((task) => JSON.stringify(task)).join('\n')}\n`);
});
afterAll(async () => {
  await server.close();
});

describe('orchestra run --tasks', () => {
  it('runs tasks two at a time, appends one summary per task, and skips them all on a re-run', async () => {
    server.reset();
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const out = join(dir, 'out.jsonl');
    const args = ['run', '--config', path, '--tasks', tasksPath, '--out', out, '--concurrency', '2'];

    const first = await runCli(args);
    expect(first.code).toBe(0);
    const lines = jsonLines<BatchLine>(readFileSync(out, 'utf8'));
    expect(lines.map((line) => line.id).sort()).toEqual(['fin', 'omn', 'rou']);
    const byId = new Map(lines.map((line) => [line.id, line]));
    expect(byId.get('fin')).toMatchObject({ type: 'summary', stopReason: 'answered', answer: '558,457', correct: true, expected: '558,457' });
    expect(byId.get('rou')).toMatchObject({ answer: '1,877,155', correct: true });
    expect(byId.get('omn')).toMatchObject({ answer: '700,000', correct: false, expected: '797,000' });
    for (const line of lines) expect(line.costUsd).toBeGreaterThan(0);
    // Two tasks started together (the first two requests both went to the orchestrator), and no
    // third: the next request is an expert's, since the third task waits for a free slot.
    const models = server.requests.map((request) => (request.body as { model: string }).model);
    expect(models.slice(0, 2)).toEqual([ORCHESTRATOR_MODEL, ORCHESTRATOR_MODEL]);
    expect(models[2]).not.toBe(ORCHESTRATOR_MODEL);
    expect(first.stderr).toContain('3/3 done');
    expect(first.stderr).toContain('Done: 3 written, 0 skipped');

    const requestsBefore = server.requests.length;
    const second = await runCli(args);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('3 tasks, 3 already in the output: skipping them.');
    expect(server.requests).toHaveLength(requestsBefore);
    expect(jsonLines<BatchLine>(readFileSync(out, 'utf8'))).toHaveLength(3);
  }, 60_000);

  it('runs again the tasks that stopped on an error, and their new lines supersede the old', async () => {
    server.reset();
    server.setFault({ kind: 'status', status: 401 });
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const out = join(dir, 'refused.jsonl');
    const args = ['run', '--config', path, '--tasks', tasksPath, '--out', out, '--concurrency', '2'];
    const refused = await runCli(args);
    expect(refused.code).toBe(1);
    expect(jsonLines<BatchLine>(readFileSync(out, 'utf8')).map((line) => line.stopReason)).toEqual(['error', 'error', 'error']);

    server.setFault(null);
    const retried = await runCli(args);
    expect(retried.code).toBe(0);
    expect(retried.stderr).toContain('3 tasks, 3 that stopped on an error last time run again.');
    const lines = jsonLines<BatchLine>(readFileSync(out, 'utf8'));
    expect(lines.slice(3).map((line) => line.stopReason)).toEqual(['answered', 'answered', 'answered']);
    // Now every task is done: a third run sends nothing.
    const requestsBefore = server.requests.length;
    expect((await runCli(args)).stderr).toContain('3 already in the output: skipping them.');
    expect(server.requests).toHaveLength(requestsBefore);
  }, 60_000);

  it('refuses an output file it cannot write before any call is made', async () => {
    server.reset();
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const result = await runCli(['run', '--config', path, '--tasks', tasksPath, '--out', join(dir, 'no-such-dir', 'out.jsonl')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Cannot write the output file');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests).toHaveLength(0);
  });

  it('stops cleanly on Ctrl-C: exit code 130, nothing half-written, the task runs again next time', async () => {
    server.reset();
    server.setFault({ kind: 'hang' });
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const out = join(dir, 'interrupted.jsonl');
    const result = await runCli(['run', '--config', path, '--tasks', tasksPath, '--out', out, '--concurrency', '1'], {
      onSpawn: interruptWhen(() => requestsFor(server.requests, ORCHESTRATOR_MODEL).length > 0),
    });
    server.setFault(null);
    expect(result.code).toBe(130);
    expect(result.stderr).toContain('Interrupted: 0 written');
    expect(!existsSync(out) || readFileSync(out, 'utf8') === '').toBe(true);
    // Only the task in flight had started.
    expect(requestsFor(server.requests, ORCHESTRATOR_MODEL)).toHaveLength(1);

    const resumed = await runCli(['run', '--config', path, '--tasks', tasksPath, '--out', out, '--concurrency', '3']);
    expect(resumed.code).toBe(0);
    expect(jsonLines<BatchLine>(readFileSync(out, 'utf8')).map((line) => line.id).sort()).toEqual(['fin', 'omn', 'rou']);
  }, 60_000);
});
