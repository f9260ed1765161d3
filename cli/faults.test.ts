// Faults, through the real CLI: a rate limit that is retried, a refused key that stops the run
// (and is never printed), and a key variable that is not set.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import type { RunSummary } from './summary.ts';
import {
  jsonLines,
  loadScenario,
  ORCHESTRATOR_MODEL,
  playScenario,
  requestsFor,
  runCli,
  runJson,
  scenarioTokenCost,
  writeConfig,
} from '../e2e/fixtures/cliHarness.ts';

const TASK = 'What is the population of the capital of Finland?';
const KEY_VARIABLE = 'SCRIPTED_API_KEY';
const KEY = 'placeholder-key-for-fault-tests';

const cli = useCliServer('cli-rate-limit');

describe('orchestra run with faults', () => {
  it('retries a 429 after its Retry-After, says so, and charges the call once', async () => {
    const { scenario, path, config } = playScenario(cli.server, cli.dir, 'cli-rate-limit');
    const { result, lines, summary } = await runJson(path, TASK);
    expect(result.code).toBe(0);
    const retries = lines.filter((line) => line.type === 'retry');
    expect(retries).toEqual([expect.objectContaining({ attempt: 1, waitMs: 300, reason: 'rate limited (HTTP 429)' })]);
    expect(requestsFor(cli.server.requests, ORCHESTRATOR_MODEL)).toHaveLength(2);
    const orchestratorCharges = lines.filter((line) => line.type === 'usage' && line.entry.kind === 'orchestrator');
    expect(orchestratorCharges).toHaveLength(1);
    expect(summary).toMatchObject({ stopReason: 'answered', answer: '558,457', turns: 1 });
    expect(summary.costUsd).toBeCloseTo(scenarioTokenCost(scenario, config), 12);

    cli.server.reset(scenario);
    const human = await runCli(['run', '--config', path, '--task', TASK]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('⟳ rate limited (HTTP 429), retrying in 0.3 s');
  }, 60_000);

  it('stops with exit code 1 on a refused key, names the problem, and never prints the key', async () => {
    cli.server.reset(loadScenario('cli-auth-failure'));
    const { path } = writeConfig(cli.dir, 'local-scripted.json', cli.server.url, (config) => {
      config.providers.scripted!.apiKeyEnv = KEY_VARIABLE;
    });
    const env = { [KEY_VARIABLE]: KEY };

    const { result: json, events, summary } = await runJson(path, TASK, { env });
    expect(json.code).toBe(1);
    // The key was really sent, and the server echoed it back in its error body.
    const [expertRequest] = requestsFor(cli.server.requests, 'scripted/answerer');
    expect(expertRequest?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(summary.stopReason).toBe('error');
    expect(summary.error).toMatch(/refused the request \(HTTP 401\).*Check the API key configured for scripted/);
    const fatal = events.find((event) => event.type === 'error' && event.fatal);
    expect(fatal).toMatchObject({ code: 'auth' });

    const human = await runCli(['run', '--config', path, '--task', TASK], { env });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('✗ Authentication failed: scripted refused the request (HTTP 401)');
    expect(human.stdout).toMatch(/Stop reason\s+error/);

    const tasks = join(cli.dir, 'auth-tasks.jsonl');
    const out = join(cli.dir, 'auth-out.jsonl');
    writeFileSync(tasks, `${JSON.stringify({ id: 'fin', question: TASK, answer: '558,457' })}\n`);
    const batch = await runCli(['run', '--config', path, '--tasks', tasks, '--out', out], { env });
    expect(batch.code).toBe(1);
    const written = readFileSync(out, 'utf8');
    expect(jsonLines<RunSummary & { id: string }>(written)).toEqual([
      expect.objectContaining({ id: 'fin', stopReason: 'error', correct: false, error: expect.stringContaining('HTTP 401') }),
    ]);

    for (const text of [json.stdout, json.stderr, human.stdout, human.stderr, batch.stdout, batch.stderr, written]) {
      expect(text).not.toContain(KEY);
    }
  }, 60_000);

  it('refuses to start when a named key variable is not set, naming the variable (exit code 2)', async () => {
    cli.server.reset(loadScenario('cli-auth-failure'));
    const { path } = writeConfig(cli.dir, 'local-scripted.json', cli.server.url, (config) => {
      config.providers.scripted!.apiKeyEnv = KEY_VARIABLE;
    });
    const result = await runCli(['run', '--config', path, '--task', TASK], { env: { [KEY_VARIABLE]: undefined } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Provider "scripted" reads its API key from the environment variable ${KEY_VARIABLE}, which is not set.`);
    expect(cli.server.requests).toHaveLength(0);
  }, 60_000);
});
