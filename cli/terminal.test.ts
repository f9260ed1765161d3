// The terminal sees text, not commands (issue 31, item 4): what a model streams in `orchestra run`,
// what a shared run file holds for `orchestra replay`, the names in a results file `eval merge`
// prints, and the errors that quote any of them reach the terminal with their control characters
// written out. OSC 52 would write the clipboard, CSI 2J and cursor moves would rewrite what was
// printed ("All tests passed"), OSC 8 would make a link whose text is not its target.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from './scripted/scriptedServer.ts';
import { useScriptedServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import { makeTempDir, ORCHESTRATOR_MODEL, runCli, writeConfig } from '../e2e/fixtures/cliHarness.ts';
import { resultsHeader, resultsPlan, writeResultsFile } from '../e2e/fixtures/resultsFiles.ts';
import { jsonLine, oneLine, terminalText, terminalValue } from './format.ts';

const ESC = '\u001b';
const OSC52 = `${ESC}]52;c;ZWNobyBwd25lZA==\u0007`;
const CLEAR = `${ESC}[2J${ESC}[H`;
const OSC8 = `${ESC}]8;;https://evil.example/${ESC}\\docs${ESC}]8;;${ESC}\\`;
const C1_CSI = '\u009b31m';
const HOSTILE = `All tests passed${OSC52}${CLEAR}${OSC8}${C1_CSI}\r\u202eevil`;

/** What a terminal would obey: every control character but newline and tab, C1 and bidi overrides. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point.
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const dir = makeTempDir();
let server: ScriptedServer;
useScriptedServer({ models: {} }, (started) => (server = started));

describe('terminalText', () => {
  it('writes out ESC, BEL, CR, C1 controls and bidi overrides, keeping lines and tabs', () => {
    expect(terminalText(HOSTILE)).toBe(
      'All tests passed\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x1b[2J\\x1b[H\\x1b]8;;https://evil.example/\\x1b\\docs\\x1b]8;;\\x1b\\\\x9b31m\\x0d\\u202eevil',
    );
    expect(terminalText('two\nlines\tand a tab')).toBe('two\nlines\tand a tab');
    expect(terminalText('two\nlines', false)).toBe('two\\x0alines');
    expect(oneLine(`a\n${CLEAR}b`, 100)).toBe('a \\x1b[2J\\x1b[Hb');
    expect(terminalValue({ [`k${ESC}`]: [HOSTILE, 1, null] })).toEqual({ 'k\\x1b': [terminalText(HOSTILE), 1, null] });
    // A JSON line means the same, and holds nothing a terminal obeys.
    expect(JSON.parse(jsonLine({ text: HOSTILE }))).toEqual({ text: HOSTILE });
    expect(jsonLine({ text: HOSTILE })).not.toMatch(OBEYED);
  });
});

describe('orchestra run, replay and eval merge print hostile text as text', () => {
  it('a streamed reply and the run file made of it: shown escaped, in the trace and in --json', async () => {
    server.reset({
      models: { [ORCHESTRATOR_MODEL]: [{ repeat: true, reasoning: `Thinking${CLEAR}`, content: `<think>${OSC8}</think><message>${HOSTILE}</message>`, chunkSize: 3 }] },
    });
    const { path } = writeConfig(dir, 'function-calling-scripted.json', server.url);
    const file = join(dir, 'hostile.json');
    const run = await runCli(['run', '--config', path, '--task', `Check${OSC52}`, '--save', file], { env: { NO_COLOR: '' } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(OBEYED);
    expect(run.stdout).toContain('All tests passed\\x1b]52;c;ZWNobyBwd25lZA==\\x07\\x1b[2J');
    expect(run.stdout).toContain('Task: Check\\x1b]52;');
    // The file keeps what was said, as data; replay shows it as run did.
    expect(readFileSync(file, 'utf8')).toContain('\\u001b[2J');
    const replay = await runCli(['replay', file]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).not.toMatch(OBEYED);
    expect(replay.stdout).toContain('All tests passed\\x1b]52;');
    const json = await runCli(['replay', file, '--json']);
    expect(json.stdout).not.toMatch(OBEYED);
    expect(json.stdout).toContain('\\u009b31m');
  }, 60_000);

  it('a run file forged with controls in its model, tool and error fields, and its warnings', async () => {
    server.reset({ models: { [ORCHESTRATOR_MODEL]: [{ repeat: true, content: '<message>fine</message>' }] } });
    const { path } = writeConfig(dir, 'function-calling-scripted.json', server.url);
    const file = join(dir, 'plain.json');
    expect((await runCli(['run', '--config', path, '--task', 'plain', '--save', file])).code).toBe(0);
    const forged = join(dir, 'forged.json');
    const text = readFileSync(file, 'utf8')
      .replaceAll(ORCHESTRATOR_MODEL, JSON.stringify(`model${CLEAR}`).slice(1, -1))
      .replace('"answer":"fine"', `"answer":${JSON.stringify(HOSTILE)}`)
      .replace('"name":', `"name":${JSON.stringify(`run${OSC8}`)},"x":`);
    writeFileSync(forged, text);
    const replay = await runCli(['replay', forged]);
    expect(replay.stdout + replay.stderr).not.toMatch(OBEYED);
    expect(replay.stdout).toContain('model\\x1b[2J');
    const missing = await runCli(['replay', forged, '--run', `none${CLEAR}`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).not.toMatch(OBEYED);
  }, 60_000);

  it('eval merge: policy and task names from a results file, in the table and in its errors', async () => {
    const policy = `orchestrator${CLEAR}All tests passed`;
    const task = `t${OSC52}`;
    const header = resultsHeader([task, 'plain'], { shard: { index: 0, count: 2 } });
    const a = writeResultsFile(join(dir, 'merge-a.jsonl'), header, resultsPlan([policy]));
    const b = writeResultsFile(join(dir, 'merge-b.jsonl'), { ...header, shard: { index: 1, count: 2 } }, resultsPlan([policy]), []);
    const merged = await runCli(['eval', 'merge', a, b, '--out', join(dir, 'merged.jsonl')]);
    expect(merged.stdout + merged.stderr).not.toMatch(OBEYED);
    expect(merged.stdout).toContain('orchestrator\\x1b[2J\\x1b[HAll tests passed');
    // The same rollout in two files: the error names it, as text.
    const twice = await runCli(['eval', 'merge', a, writeResultsFile(join(dir, 'merge-c.jsonl'), { ...header, shard: { index: 1, count: 2 } }, resultsPlan([policy])), '--out', join(dir, 'twice.jsonl')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('both hold orchestrator\\x1b[2J');
    expect(twice.stderr).not.toMatch(OBEYED);
  }, 60_000);
});
