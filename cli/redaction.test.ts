// No key in any form leaves the CLI (issue 31, items 2, 3 and 10): a hostile endpoint echoes the
// key it was sent JSON-escaped in a tool call's arguments, as base64 wrapped over lines, cut short
// at the end of a reply, and near the 300th character of a 401. The tool is never handed it, no
// request body the server receives carries it, and neither the terminal nor the --save file does,
// in any form Node's own decoders would turn back into it (e2e/fixtures/keyForms.ts).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Scenario } from './scripted/scenario.ts';
import type { ScriptedServer } from './scripted/scriptedServer.ts';
import { useScriptedServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import { jsonLines, makeTempDir, ORCHESTRATOR_MODEL, runCli, writeConfig } from '../e2e/fixtures/cliHarness.ts';
import { longestPieceOfKey, MAX_KEY_PIECE } from '../e2e/fixtures/keyForms.ts';
import type { RunEvent } from '../workers/engine/events.ts';

const KEY = 'sk-proj-cliEcho7Qm3vT8pX2rLk9wZc4nHs7yB1';
const MARKER = '[scripted API key removed]';
const dir = makeTempDir();
let server: ScriptedServer;
useScriptedServer({ models: {} }, (started) => (server = started));

/** The orchestrator searches with the key JSON-escaped (a server-parsed call), then with it as
 * wrapped base64 (a call written as text), then answers with the key cut short at its end. */
const hostile: Scenario = {
  models: {
    [ORCHESTRATOR_MODEL]: [
      { content: '', toolCalls: [{ name: 'search_corpus', arguments: '{"query": "capital of Finland {{api_key_json_u}}"}' }], chunkSize: 5 },
      { content: '<tool_call>\n{"name": "search_corpus", "arguments": {"query": "population {{api_key_base64_lines_json}}"}}\n</tool_call>', chunkSize: 5 },
      { content: 'Helsinki. Authenticated as {{api_key_cut}}', chunkSize: 5 },
    ],
  },
};

function config(): string {
  return writeConfig(dir, 'function-calling-scripted.json', server.url, (value) => {
    value.providers.scripted!.apiKeyEnv = 'SCRIPTED_KEY';
  }).path;
}

const bodies = () => server.requests.filter((request) => request.method === 'POST').map((request) => JSON.stringify(request.body));

describe('a key echoed back in a form the redactor did not know', () => {
  it('JSON-escaped or base64 over lines in tool calls, cut short at the end of a reply: the tool, the requests, the terminal and the file get the marker', async () => {
    server.reset(hostile);
    const file = join(dir, 'hostile-run.json');
    const run = await runCli(['run', '--config', config(), '--task', 'How many people live in Helsinki?', '--json', '--save', file], { env: { SCRIPTED_KEY: KEY } });
    expect(run.code).toBe(0);
    const events = jsonLines<RunEvent>(run.stdout).filter((line) => 'type' in line);
    const queries = events.flatMap((event) => (event.type === 'tool_call' ? [String(event.arguments.query)] : []));
    expect(queries).toEqual([`capital of Finland ${MARKER}`, `population ${MARKER}`]);
    expect(bodies()).toHaveLength(3);
    for (const body of bodies()) expect(longestPieceOfKey(body, KEY)).toBeLessThanOrEqual(MAX_KEY_PIECE);
    expect(run.stdout).toContain(`Helsinki. Authenticated as ${MARKER}`);
    for (const text of [run.stdout, run.stderr, readFileSync(file, 'utf8')]) expect(longestPieceOfKey(text, KEY)).toBeLessThanOrEqual(MAX_KEY_PIECE);
  }, 60_000);

  it('a 401 that echoes the key across its 300th character shows *** and none of the key', async () => {
    server.reset({
      models: { [ORCHESTRATOR_MODEL]: [{ content: 'never', fault: { kind: 'status', status: 401, message: `Incorrect API key provided: ${'x'.repeat(255)}{{api_key}}.` } }] },
    });
    const file = join(dir, 'error-run.json');
    const run = await runCli(['run', '--config', config(), '--task', 'How many people live in Helsinki?', '--save', file], { env: { SCRIPTED_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Authentication failed');
    expect(run.stdout).toContain(`${'x'.repeat(20)}***`);
    for (const text of [run.stdout, run.stderr, readFileSync(file, 'utf8')]) expect(longestPieceOfKey(text, KEY)).toBeLessThanOrEqual(MAX_KEY_PIECE);
  }, 60_000);
});
