// `orchestra eval` end to end: the real CLI process, the real scripted HTTP server, the local
// corpus and the QuickJS sandbox. Accuracy and cost are checked against figures worked out by hand
// from the scripted token counts and the example config's prices.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scripted/scriptedServer.ts';
import type { Scenario } from './scripted/scenario.ts';
import { normalizeAnswer } from '../workers/eval/answers.ts';
import type { EvalSummary, RolloutRecord } from '../workers/eval/results.ts';
import { callAnswer, corpusEvalScenario, EVAL_TASKS, evalSuiteJsonl, WRONG_FROM } from '../e2e/fixtures/evalScenario.ts';
import { interruptWhen, jsonLines, makeTempDir, ORCHESTRATOR_MODEL, requestsFor, runCli, writeConfig } from '../e2e/fixtures/cliHarness.ts';

const dir = makeTempDir();
const TASKS = EVAL_TASKS;
const suitePath = join(dir, 'corpus-20.jsonl');
const corpusScenario = corpusEvalScenario;

let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedServer({ scenario: corpusScenario() });
  writeFileSync(suitePath, evalSuiteJsonl());
});
afterAll(async () => {
  await server.close();
});

const summaryOf = (stdout: string) => jsonLines<EvalSummary>(stdout).at(-1)!;
const policy = (summary: EvalSummary, name: string) => summary.policies.find((p) => p.name === name)!;

describe('orchestra eval: 20 corpus tasks against the scripted server', () => {
  it('has questions no one of which contains another (the server picks responses by question)', () => {
    for (const a of TASKS) for (const b of TASKS) if (a !== b) expect(b.question.includes(a.question)).toBe(false);
  });

  it('reports accuracy and cost per policy as worked out by hand, and the same numbers every time', async () => {
    server.reset(corpusScenario());
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const out = join(dir, 'corpus.jsonl');
    const csv = join(dir, 'corpus.csv');
    const report = join(dir, 'corpus-report.json');
    const args = ['eval', '--config', path, '--suite', suitePath, '--out', out, '--policy', 'orchestrator', '--policy', 'strongest', '--policy', 'cheapest', '--concurrency', '4', '--json', '--csv', csv, '--report', report];
    const first = await runCli(args);
    expect(first.stderr).toContain('60 rollouts.');
    expect(first.code).toBe(0);
    const summary = summaryOf(first.stdout);
    expect(first.stdout.trim().split('\n')).toHaveLength(1);
    expect(summary).toMatchObject({ type: 'eval_summary', interval: 'wilson-95', tasks: 20, rolloutsPerTask: 1 });

    // The orchestrator: per task 1,000 + 20 tokens at $0.20/M, then the cheap expert's 500 tokens
    // at $0.25/M and 6 at $2/M: $0.000204 + $0.000137 = $0.000341. 15 of 20 answers are right.
    const orchestrator = policy(summary, 'orchestrator');
    expect(orchestrator).toMatchObject({ rollouts: 20, correct: 15, accuracy: 0.75, toolShares: { 'answer-2': 1 }, abnormalStops: 0, failedChecks: 0 });
    expect(orchestrator.costUsd).toBeCloseTo(0.000341, 12);
    expect(orchestrator.totalCostUsd).toBeCloseTo(0.00682, 12);
    expect(orchestrator.costPerCorrect).toBeCloseTo(0.00682 / 15, 12);
    expect(orchestrator.accuracyLow).toBeCloseTo(0.5313, 4);
    expect(orchestrator.accuracyHigh).toBeCloseTo(0.8881, 4);
    expect(orchestrator.modelShares).toEqual({ [ORCHESTRATOR_MODEL]: 0.5, 'scripted/answerer-mini': 0.5 });

    // The strongest expert (answer-1, $1.25/M in and $10/M out) alone: 300 and 10 tokens, $0.000475; all right.
    const strongest = policy(summary, 'strongest');
    expect(strongest).toMatchObject({ model: 'scripted/answerer', rollouts: 20, correct: 20, accuracy: 1, toolShares: {}, modelShares: { 'scripted/answerer': 1 } });
    expect(strongest.costUsd).toBeCloseTo(0.000475, 12);
    expect(strongest.costPerCorrect).toBeCloseTo(0.000475, 12);

    // The cheapest (answer-2) alone: its 500 and 6 tokens, $0.000137; the same 15 right.
    const cheapest = policy(summary, 'cheapest');
    expect(cheapest).toMatchObject({ model: 'scripted/answerer-mini', correct: 15, accuracy: 0.75 });
    expect(cheapest.costUsd).toBeCloseTo(0.000137, 12);

    // The orchestrator costs more than the cheap expert for the same accuracy: off the front.
    expect(summary.pareto).toEqual(['cheapest', 'strongest']);

    // The baselines answered alone: the answer prompt, no tools, one call per task.
    const alone = requestsFor(server.requests, 'scripted/answerer');
    expect(alone).toHaveLength(20);
    expect(alone[0]?.body.tools).toBeUndefined();
    expect(alone[0]?.body.messages).toHaveLength(1);
    // The answer expert's prompt with no context: as the reference lays it out, a blank line first.
    expect(alone[0]?.body.messages[0]?.content).toMatch(/^\n\nProblem:\n.*\nWrap the thinking process/);

    // A header line, the plan (policies and rollouts), then one line per rollout; every verdict says why.
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(62);
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'eval_started', suite: suitePath, seed: '0', taskIds: TASKS.map((task) => task.id) });
    expect(JSON.parse(lines[1]!)).toMatchObject({ type: 'eval_plan', rollouts: 1, policies: [{ name: 'orchestrator' }, { name: 'strongest' }, { name: 'cheapest' }] });
    const records = jsonLines<RolloutRecord>(lines.slice(2).join('\n'));
    const wrong = records.find((r) => r.policy === 'orchestrator' && r.taskId === TASKS[WRONG_FROM]!.id)!;
    expect(wrong).toMatchObject({ answer: '0', correct: false, verdict: { check: 'exact', correct: false } });
    expect(wrong.verdict.reason).toBe(`"0" is not "${TASKS[WRONG_FROM]!.answer}" (normalised: "0" vs "${normalizeAnswer(TASKS[WRONG_FROM]!.answer)}")`);

    // The exports: the table as CSV, the full report with each task's group.
    const csvLines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(csvLines).toHaveLength(4);
    expect(csvLines[1]).toMatch(/^orchestrator,.*,20,20,15,0\.75,/);
    const full = JSON.parse(readFileSync(report, 'utf8')) as { groups: unknown[]; policies: unknown[] };
    expect(full.groups).toHaveLength(60);
    expect(full.policies).toEqual(summary.policies);

    // Run again into the same file: everything is there, nothing is asked, the same report (the
    // --csv and --report files are there too: --force replaces them).
    const asked = server.requests.length;
    const again = await runCli([...args, '--force']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('60 rollouts, 60 already in the results file: skipping them.');
    expect(server.requests).toHaveLength(asked);
    expect(summaryOf(again.stdout)).toEqual(summary);

    // Run again from scratch: the same numbers (the latency aside, which is the clock's).
    const fresh = await runCli([...args.slice(0, 6), join(dir, 'corpus-again.jsonl'), ...args.slice(7), '--force']);
    const strip = (s: EvalSummary) => s.policies.map(({ latencyMs: _latency, ...rest }) => rest);
    expect(strip(summaryOf(fresh.stdout))).toEqual(strip(summary));
  }, 120_000);

  it('prints progress and then the results table', async () => {
    server.reset(corpusScenario());
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const result = await runCli(['eval', '--config', path, '--suite', suitePath, '--out', join(dir, 'table.jsonl'), '--policy', 'cheapest', '--sweep', 'cost=0,1']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/✓ cheapest · [\w-]+ #1 · \$0\.000137 · exact: .* · \d+\/60 rollouts · accuracy [\d.]+% \(\d+\/\d+\) · \$[\d.]+ spent/);
    expect(result.stderr).toMatch(/Done: 60 rollouts run, 0 skipped · \$[\d.]+ · \d+ s/);
    const table = result.stdout;
    expect(table).toMatch(/Policy\s+Rollouts\s+Accuracy \(95% CI\)\s+Cost\/task\s+Latency\s+Cost\/correct\s+Tool calls/);
    expect(table).toMatch(/★ cheapest\s+20\s+75\.0% \(53\.1%–88\.8%\)\s+\$0\.000137\s+/);
    expect(table).toMatch(/ {2}orchestrator@cost=0\s+20\s+75\.0%.*answer-2 100%/);
    expect(table).toContain('orchestrator@cost=1: orchestrator nvidia/Nemotron-Orchestrator-8B (outcome 0, cost 1, latency 0)');
    // The sweep's settings reached the orchestrator as its preference instruction.
    const prompts = requestsFor(server.requests, ORCHESTRATOR_MODEL).map((r) => r.body.messages.at(-1)?.content ?? '');
    expect(prompts.some((p) => p.includes('User preference: Weigh correctness 100%.'))).toBe(true);
    expect(prompts.some((p) => p.includes('User preference: Weigh low cost 100%.'))).toBe(true);
  }, 120_000);

  it('stops starting rollouts at the budget, and says so', async () => {
    server.reset(corpusScenario());
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const result = await runCli(['eval', '--config', path, '--suite', suitePath, '--out', join(dir, 'budget.jsonl'), '--concurrency', '1', '--budget', '0.001', '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Budget reached ($0.00102 spent): no new rollout starts; those running finish.');
    expect(result.stderr).toMatch(/Stopped at the budget: 3 rollouts run, 0 skipped, 17 not run/);
    expect(policy(summaryOf(result.stdout), 'orchestrator').rollouts).toBe(3);
    expect(requestsFor(server.requests, ORCHESTRATOR_MODEL)).toHaveLength(3);
  }, 60_000);

  it('refuses to mix two evaluations in one results file', async () => {
    server.reset(corpusScenario());
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const out = join(dir, 'mixed.jsonl');
    expect((await runCli(['eval', '--config', path, '--suite', suitePath, '--out', out, '--policy', 'cheapest'])).code).toBe(0);
    const asked = server.requests.length;
    const other = await runCli(['eval', '--config', path, '--suite', suitePath, '--out', out, '--policy', 'random', '--seed', 'other']);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`Cannot resume into "${out}": it holds results of another evaluation: the seed ("0" then, "other" now) differs. Write the results to a new --out file.`);
    expect(server.requests).toHaveLength(asked);
  }, 60_000);
});

describe('orchestra eval: the random policy', () => {
  const scenario = (): Scenario => ({
    models: {
      'scripted/searcher': [{ repeat: true, content: '<query>capital city population</query>', usage: { prompt_tokens: 200, completion_tokens: 8 } }],
      // No code at all, so nothing runs: a Python run is charged by the second, which no seed can fix.
      // (A block holding a newline is code, byte for byte as the reference extracts it, and runs.)
      'scripted/coder': [{ repeat: true, content: '```python```', usage: { prompt_tokens: 150, completion_tokens: 7 } }],
      'scripted/answerer': TASKS.map((task) => ({ when: task.question, repeat: true, content: `<answer>${task.answer}</answer>`, usage: { prompt_tokens: 300, completion_tokens: 10 } })),
      'scripted/answerer-mini': [{ repeat: true, content: '<answer>0</answer>', usage: { prompt_tokens: 100, completion_tokens: 4 } }],
    },
  });

  it('takes the same routes and gets the same numbers with the same seed, other routes with another', async () => {
    const { path } = writeConfig(dir, 'local-scripted.json', server.url, (config) => {
      config.limits = { maxTurns: 6 };
    });
    const run = async (seed: string, out: string) => {
      server.reset(scenario());
      const result = await runCli(['eval', '--config', path, '--suite', suitePath, '--out', join(dir, out), '--policy', 'random', '--seed', seed, '--rollouts', '2', '--concurrency', '4', '--json']);
      expect(result.stderr).not.toContain('could not start');
      expect(result.code).toBe(0);
      const records = jsonLines<RolloutRecord>(readFileSync(join(dir, out), 'utf8')).filter((line) => line.type === 'rollout');
      const routes = records
        .map((r) => ({ task: r.taskId, rollout: r.rollout, tools: r.toolFeatures, answer: r.answer, correct: r.correct, cost: r.costUsd, stop: r.stopReason }))
        .sort((a, b) => (a.task === b.task ? a.rollout - b.rollout : a.task < b.task ? -1 : 1));
      return { routes, summary: summaryOf(result.stdout) };
    };
    const first = await run('s1', 'random-1.jsonl');
    const again = await run('s1', 'random-2.jsonl');
    const other = await run('s2', 'random-3.jsonl');
    expect(first.routes).toHaveLength(40);
    expect(again.routes).toEqual(first.routes);
    expect(again.summary.policies[0]?.accuracy).toBe(first.summary.policies[0]?.accuracy);
    expect(again.summary.policies[0]?.costUsd).toBe(first.summary.policies[0]?.costUsd);
    expect(other.routes).not.toEqual(first.routes);
    // It routes over the config's own aliases, and sometimes gets it right.
    const used = new Set(first.routes.flatMap((r) => Object.keys(r.tools)));
    for (const alias of used) expect(['search-1', 'reasoner-1', 'answer-1', 'answer-2']).toContain(alias);
    expect(first.summary.policies[0]?.correct).toBeGreaterThan(0);
    expect(first.summary.policies[0]?.correct).toBeLessThan(40);
    // The random router itself costs nothing and asks no model.
    expect(requestsFor(server.requests, ORCHESTRATOR_MODEL)).toHaveLength(0);
  }, 120_000);
});

describe('orchestra eval: a prompted Qwen3 as orchestrator', () => {
  it('runs the same protocol with that model, the tools rendered into its prompt', async () => {
    const [task] = TASKS;
    const qwen = 'Qwen/Qwen3-8B';
    const suite = join(dir, 'one.jsonl');
    writeFileSync(suite, `${JSON.stringify({ id: task!.id, task: task!.question, answer: task!.answer })}\n`);
    server.reset({
      models: {
        [qwen]: [{ repeat: true, content: callAnswer('answer-1'), usage: { prompt_tokens: 900, completion_tokens: 25 } }],
        'scripted/answerer': [{ repeat: true, content: `<answer>${task!.answer}</answer>`, usage: { prompt_tokens: 300, completion_tokens: 10 } }],
      },
    });
    const { path } = writeConfig(dir, 'local-scripted.json', server.url, (config) => {
      config.orchestrator.toolMode = 'server';
    });
    const result = await runCli(['eval', '--config', path, '--suite', suite, '--out', join(dir, 'qwen.jsonl'), '--policy', `qwen3=scripted/${qwen}`, '--json']);
    expect(result.code).toBe(0);
    expect(policy(summaryOf(result.stdout), `qwen3=scripted/${qwen}`)).toMatchObject({ model: qwen, correct: 1, toolShares: { 'answer-1': 1 } });
    const [request] = requestsFor(server.requests, qwen);
    expect(request?.body.tools).toBeUndefined();
    expect(request?.body.messages[0]?.content).toContain('<tools>');
    expect(requestsFor(server.requests, ORCHESTRATOR_MODEL)).toHaveLength(0);
  }, 60_000);
});

describe('orchestra eval: Ctrl-C', () => {
  it('stops at once, writes nothing half-done, and the next run resumes', async () => {
    server.reset(corpusScenario());
    server.setFault({ kind: 'hang' });
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const out = join(dir, 'interrupted.jsonl');
    const args = ['eval', '--config', path, '--suite', suitePath, '--out', out, '--concurrency', '2', '--json'];
    const stopped = await runCli(args, { onSpawn: interruptWhen(() => requestsFor(server.requests, ORCHESTRATOR_MODEL).length >= 2) });
    server.setFault(null);
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('interrupted, not recorded (it runs again next time)');
    expect(stopped.stderr).toMatch(/Interrupted: 0 rollouts run, 0 skipped, 20 not run/);
    // Only the header and the plan: no rollout was half-written.
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(2);

    const resumed = await runCli(args);
    expect(resumed.code).toBe(0);
    expect(policy(summaryOf(resumed.stdout), 'orchestrator')).toMatchObject({ rollouts: 20, correct: 15 });
  }, 60_000);
});

describe('orchestra eval: a judge', () => {
  it('grades with the configured judge, and its cost is in the suite\'s cost', async () => {
    const suite = join(dir, 'judged.jsonl');
    const [task] = TASKS;
    writeFileSync(suite, `${JSON.stringify({ id: 'judged', task: task!.question, answer: task!.answer, check: { kind: 'judge' } })}\n`);
    server.reset({
      models: {
        'scripted/answerer': [{ repeat: true, content: `<answer>about ${task!.answer} people</answer>`, usage: { prompt_tokens: 300, completion_tokens: 10 } }],
        'scripted/judge': [{ repeat: true, content: '<correct>True</correct>', usage: { prompt_tokens: 200, completion_tokens: 8 } }],
      },
    });
    const { path } = writeConfig(dir, 'local-scripted.json', server.url, (config) => {
      config.evaluation = { judge: { provider: 'scripted', model: 'scripted/judge' } };
      config.pricing.models['scripted/judge'] = { inputPerM: 1, outputPerM: 5 };
    });
    const result = await runCli(['eval', '--config', path, '--suite', suite, '--out', join(dir, 'judged-out.jsonl'), '--policy', 'strongest', '--json']);
    expect(result.code).toBe(0);
    const strongest = policy(summaryOf(result.stdout), 'strongest');
    // The answer: $0.000475 (as above); the judge: 200 tokens at $1/M and 8 at $5/M, $0.00024.
    expect(strongest).toMatchObject({ correct: 1 });
    expect(strongest.gradingCostUsd).toBeCloseTo(0.00024, 12);
    expect(strongest.costUsd).toBeCloseTo(0.000475 + 0.00024, 12);
    const judged = requestsFor(server.requests, 'scripted/judge');
    expect(judged).toHaveLength(1);
    expect(judged[0]?.body.messages[0]?.content).toContain(`Student answer: about ${task!.answer} people\n\nReference answer: ${task!.answer}`);

    // Without a judge in the configuration, a suite with judge checks is refused before any call.
    const { path: noJudge } = writeConfig(dir, 'local-scripted.json', server.url);
    const refused = await runCli(['eval', '--config', noJudge, '--suite', suite, '--out', join(dir, 'judged-none.jsonl'), '--policy', 'strongest']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('has a judge check, and the configuration names no judge');
    expect(existsSync(join(dir, 'judged-none.jsonl'))).toBe(false);
  }, 60_000);
});

describe('orchestra eval: mistakes', () => {
  it('says what is wrong, with the line, before any call', async () => {
    server.reset(corpusScenario());
    const { path } = writeConfig(dir, 'local-scripted.json', server.url);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id": "a", "task": "x", "answer": "1"}\n{"id": "b", "task": "y", "check": {"kind": "regex", "pattern": "(("}}\n');
    const badSuite = await runCli(['eval', '--config', path, '--suite', bad, '--out', join(dir, 'x.jsonl')]);
    expect(badSuite.code).toBe(2);
    expect(badSuite.stderr).toContain(`${bad} is not a valid suite:\n  - line 2: the pattern does not compile`);

    const badPolicy = await runCli(['eval', '--config', path, '--suite', suitePath, '--out', join(dir, 'x.jsonl'), '--policy', 'smartest']);
    expect(badPolicy.code).toBe(2);
    expect(badPolicy.stderr).toContain('Unknown policy "smartest". Policies: orchestrator, orchestrator@<preset>');

    const noOut = await runCli(['eval', '--config', path, '--suite', suitePath]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--out <file.jsonl> is required');

    const unknownBuiltIn = await runCli(['eval', '--config', path, '--suite', 'builtin:airline', '--out', join(dir, 'x.jsonl')]);
    expect(unknownBuiltIn.stderr).toContain('There is no built-in suite "airline"; built in: builtin:corpus, builtin:retail, builtin:clinic, builtin:tau2-retail, builtin:tau2-telecom, builtin:tau2-airline, builtin:toolscale-bank,');
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(dir, 'x.jsonl'))).toBe(false);
  }, 60_000);
});
