// Test support for the CLI tests: spawns the real CLI (Node + tsx) and prepares configurations
// that point at a scripted server on an ephemeral port.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseScenario, type Scenario } from '../e2e/fixtures/scenario.ts';
import type { RecordedRequest } from '../e2e/fixtures/scriptedServer.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const ORCHESTRATOR_MODEL = 'nvidia/Nemotron-Orchestrator-8B';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  /** Called once the process has started (to send it signals). */
  onSpawn?: (child: ChildProcess) => void;
}

/** Runs `orchestra <args>` as its own process, the way `npm run orchestra` does (tsx). */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/orchestra.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
    options.onSpawn?.(child);
  });
}

export function loadScenario(name: string): Scenario {
  return parseScenario(JSON.parse(readFileSync(join(ROOT, 'e2e/fixtures/scenarios', `${name}.json`), 'utf8')));
}

/** The parts of a configuration file the tests read or change. */
export interface ConfigJson {
  providers: Record<string, { baseUrl?: string; apiKeyEnv?: string; [key: string]: unknown }>;
  orchestrator: { toolMode?: string; [key: string]: unknown };
  pricing: { models: Record<string, { inputPerM: number; outputPerM: number }>; codePerSecond?: number };
  [key: string]: unknown;
}

/** An OpenAI chat request as the scripted server recorded it. */
export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  tools?: Array<{ type: string; function: { name: string; description: string } }>;
}

export function loadExample(name: string): ConfigJson {
  return JSON.parse(readFileSync(join(ROOT, 'cli/examples', name), 'utf8')) as ConfigJson;
}

export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'orchestra-cli-'));
}

/** Writes an example config with every provider pointed at `serverUrl`, after `patch`. */
export function writeConfig(dir: string, example: string, serverUrl: string, patch: (config: ConfigJson) => void = () => {}): {
  path: string;
  config: ConfigJson;
} {
  const config = loadExample(example);
  for (const provider of Object.values(config.providers)) {
    provider.baseUrl = `${serverUrl}/v1`;
  }
  patch(config);
  const path = join(dir, `${example.replace(/\.json$/, '')}-${Math.random().toString(36).slice(2, 8)}.json`);
  writeFileSync(path, JSON.stringify(config, null, 2));
  return { path, config };
}

/** Parses JSONL; the caller names what the lines are. */
export function jsonLines<T>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
}

/** What one scripted response's usage costs at the config's own price for its model. */
export function usageCost(config: ConfigJson, model: string, usage: { prompt_tokens: number; completion_tokens: number }): number {
  const price = config.pricing.models[model];
  if (!price) throw new Error(`The test config has no price for ${model}`);
  return (usage.prompt_tokens * price.inputPerM + usage.completion_tokens * price.outputPerM) / 1_000_000;
}

/** The cost of serving every response of the scenario once, at the config's prices. */
export function scenarioTokenCost(scenario: Scenario, config: ConfigJson): number {
  let total = 0;
  for (const [model, responses] of Object.entries(scenario.models)) {
    for (const response of responses) if (response.usage) total += usageCost(config, model, response.usage);
  }
  return total;
}

export type ChatRequestRecord = RecordedRequest & { body: ChatBody };

/** The chat requests the server received for one model, oldest first. */
export function requestsFor(requests: readonly RecordedRequest[], model: string): ChatRequestRecord[] {
  return requests.filter(
    (request): request is ChatRequestRecord => (request.body as { model?: unknown } | undefined)?.model === model,
  );
}

export function lastUserContent(request: ChatRequestRecord): string {
  return [...request.body.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
}
