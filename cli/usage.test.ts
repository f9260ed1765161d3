// Usage and configuration mistakes (exit code 2, naming the field or flag), validate, tasks, help.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNodeSampleTasks } from '../tools/search/nodeCorpus.ts';
import { jsonLines, loadExample, makeTempDir, runCli } from '../e2e/fixtures/cliHarness.ts';

const dir = makeTempDir();

function writeJson(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

describe('orchestra configuration errors', () => {
  it('names every wrong field, for validate and for run (exit code 2)', async () => {
    const config = loadExample('local-scripted.json');
    config.providers.scripted!.baseUrl = 'not a url';
    config.orchestrator.toolMode = 'magic';
    const path = writeJson('bad.json', config);
    const unknownProvider = loadExample('local-scripted.json');
    (unknownProvider.experts as Record<string, Record<string, unknown>>)['answer-1']!.provider = 'nowhere';
    const unknownProviderPath = writeJson('unknown-provider.json', unknownProvider);
    const [validate, run, crossCheck] = await Promise.all([
      runCli(['validate', '--config', path]),
      runCli(['run', '--config', path, '--task', 'anything']),
      runCli(['validate', '--config', unknownProviderPath]),
    ]);
    for (const result of [validate, run]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('The configuration is not valid');
      expect(result.stderr).toContain('providers.scripted.baseUrl: must be a full http(s) URL');
      expect(result.stderr).toContain('orchestrator.toolMode');
      expect(result.stdout).toBe('');
    }
    expect(crossCheck.code).toBe(2);
    expect(crossCheck.stderr).toContain('experts.answer-1.provider: names provider "nowhere"');
  }, 30_000);

  it('reports unreadable files, bad JSON, unknown flags and bad numbers with exit code 2', async () => {
    const notJson = writeJson('not-json.json', '{ "protocol": ');
    const example = join('cli', 'examples', 'local-scripted.json');
    const results = await Promise.all([
      runCli(['validate', '--config', join(dir, 'missing.json')]),
      runCli(['validate', '--config', notJson]),
      runCli(['run', '--config', example, '--task', 'x', '--bogus']),
      runCli(['run', '--config', example, '--task', 'x', '--rollouts', '0']),
      runCli(['run', '--config', example]),
      runCli(['run', '--config', example, '--tasks', 'tasks.jsonl']),
      runCli(['launch']),
    ]);
    const [missing, badJson, unknownFlag, badNumber, noTask, noOut, unknownCommand] = results;
    for (const result of results) expect(result.code).toBe(2);
    expect(missing?.stderr).toContain('missing.json": no such file');
    expect(badJson?.stderr).toContain('not valid JSON');
    expect(unknownFlag?.stderr).toContain("Unknown option '--bogus'");
    expect(unknownFlag?.stderr).toContain('Usage:');
    expect(badNumber?.stderr).toContain('--rollouts must be a whole number of at least 1, got "0"');
    expect(noTask?.stderr).toContain('Give either --task');
    expect(noOut?.stderr).toContain('A batch needs --out');
    expect(unknownCommand?.stderr).toContain('Unknown command "launch"');
  }, 30_000);
});

describe('orchestra validate, tasks and help', () => {
  it('summarises a valid configuration: experts per alias with model and price, pricing date, keys', async () => {
    const result = await runCli(['validate', '--config', 'cli/examples/paper-vllm.json'], { env: { OPENAI_API_KEY: 'placeholder-never-shown' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('cli/examples/paper-vllm.json is valid.');
    expect(result.stdout).toMatch(/search-2\s+search\s+gpt-5-mini\s+openai\s+\$0\.25\s+\$2\s+16s/);
    expect(result.stdout).toMatch(/answer-4\s+answer\s+Qwen\/Qwen3-32B\s+open-models\s+\$0\.8\s+\$0\.8\s+11s/);
    expect(result.stdout).toContain('as of 2025-11-26');
    expect(result.stdout).toContain('openai: OPENAI_API_KEY (set)');
    expect(result.stdout).not.toContain('placeholder-never-shown');
  }, 30_000);

  it('prints the sample tasks as JSONL, and help for every command', async () => {
    const [tasks, ...helps] = await Promise.all([
      runCli(['tasks']),
      runCli(['--help']),
      runCli(['run', '--help']),
      runCli(['reward', '--help']),
      runCli(['validate', '--help']),
      runCli(['tasks', '--help']),
      runCli(['replay', '--help']),
    ]);
    expect(tasks.code).toBe(0);
    const printed = jsonLines<{ id: string; question: string; answer: string }>(tasks.stdout);
    const expected = loadNodeSampleTasks();
    expect(printed.map((task) => task.id)).toEqual(expected.map((task) => task.id));
    expect(printed[0]).toMatchObject({ question: expected[0]?.question, answer: expected[0]?.answer });
    for (const help of helps) {
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('Usage:');
    }
    expect(helps[1]?.stdout).toContain('--rollouts <N>');
    expect(helps[1]?.stdout).toContain('--save <file.json>');
    expect(helps[5]?.stdout).toContain('--run <id>');
    expect(helps[0]?.stdout).toMatch(/^ {2}replay {5}/m);
  }, 30_000);
});
