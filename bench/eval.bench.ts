// Evaluation overhead (`npm run bench -- --only eval`). A 200-task suite at concurrency 8 against
// zero-latency doubles, so what is measured is the engine's and the evaluation's own work per
// task: preparing the run, the loop, grading, recording and the progress; and the summary at the
// end. The bare figure runs the same tasks through the engine alone (runOrchestration at the same
// concurrency, no evaluation around it), so the difference is what evaluating adds.
// A second measurement runs the retail domain (24 tasks × 8 rollouts), whose tools run in the
// QuickJS sandbox, as the CLI runs them. It prints figures and asserts nothing.

import { performance } from 'node:perf_hooks';
import { DomainEnvironment } from '../workers/domains/environment.ts';
import { builtInDomainDir, loadDomainDir } from '../cli/nodeDomains.ts';
import { createNodeJavaScriptRunner } from '../tools/javascript/nodeJavaScriptRunner.ts';
import type { Retriever } from '../workers/engine/ports.ts';
import { PREFERENCE_PRESETS } from '../workers/engine/preferences.ts';
import type { GoldenAction } from '../workers/eval/checks.ts';
import type { Policy, PreparedTask } from '../workers/eval/policy.ts';
import { summarizeEval, type RolloutRecord } from '../workers/eval/results.ts';
import { runEvaluation, type Grading } from '../workers/eval/runner.ts';
import type { SuiteTask } from '../workers/eval/suite.ts';
import { REFERENCE_PRICING } from '../workers/engine/pricing.ts';
import { createFunctionCallingProtocol } from '../workers/engine/protocols/functionCalling.ts';
import { benchPaperExperts, benchPaperProtocol } from './paperSetup.ts';
import { formatToolCall } from '../workers/engine/qwen3/render.ts';
import { runOrchestration } from '../workers/engine/run.ts';
import type { ChatCompletion, ChatDelta, ChatModel, ChatRequest } from '../workers/engine/types.ts';
import { median } from './stats.ts';

const TASKS = 200;
const CONCURRENCY = 8;
const DOMAIN_ROLLOUTS = 8;
const REPEATS = 5;
const DELTAS_PER_REPLY = 20;

/** A chat model that answers at once from a script (per call), streaming the reply in deltas. */
function instantModel(model: string, reply: (turn: number) => string): ChatModel {
  let turn = 0;
  return {
    model,
    label: `instant:${model}`,
    supportsServerTools: false,
    complete(_request: ChatRequest, onDelta?: (delta: ChatDelta) => void): Promise<ChatCompletion> {
      const content = reply(turn++);
      const size = Math.ceil(content.length / DELTAS_PER_REPLY);
      for (let i = 0; i < content.length; i += size) onDelta?.({ type: 'content', text: content.slice(i, i + size) });
      return Promise.resolve({ content, usage: { promptTokens: 1000, completionTokens: 50 }, finishReason: 'stop', latencyMs: 0 });
    },
  };
}

const retriever: Retriever = {
  search: (query) => Promise.resolve([0, 1].map((i) => ({ id: `${query}-${i}`, title: `Doc ${i}`, text: `About ${query}. `.repeat(40), score: 1 }))),
};

/** Each task: search once, then answer; the answer expert is right for three tasks in four. */
const corpusTasks: SuiteTask[] = Array.from({ length: TASKS }, (_, i) => ({
  id: `t${i}`,
  task: `What is the population of city number ${i}?`,
  answer: `${1000 + i}`,
  check: { kind: 'exact', answer: `${1000 + i}` },
  line: i + 1,
}));

function paperRun(task: SuiteTask): PreparedTask['run'] {
  const index = Number(task.id.slice(1));
  const orchestrator = instantModel('Qwen/Qwen3-8B', (turn) =>
    `<think>Look it up, then answer.</think>\n${formatToolCall({ name: turn === 0 ? 'search' : 'answer', arguments: { model: turn === 0 ? 'search-2' : 'answer-2' } })}`,
  );
  const experts = benchPaperExperts({
    search: instantModel('gpt-5-mini', () => `<query>population city ${index}</query>`),
    answer: instantModel('gpt-5-mini', () => `<answer>${index % 4 === 3 ? 0 : 1000 + index}</answer>`),
    reasoner: instantModel('gpt-5-mini', () => ''),
  });
  const protocol = benchPaperProtocol(experts, retriever);
  return {
    protocol,
    orchestrator: { model: orchestrator, toolMode: 'prompt' },
    pricing: REFERENCE_PRICING,
    counterfactualModel: 'gpt-5',
    limits: { maxTurns: 10, maxCostUsd: null, maxWallMs: null, maxInvalidTurns: 3 },
    instruction: null,
  };
}

function policyOf(prepare: (task: SuiteTask) => PreparedTask): Policy {
  return { name: 'orchestrator', kind: 'orchestrator', label: 'instant doubles', model: 'Qwen/Qwen3-8B', preference: PREFERENCE_PRESETS.balanced, prepare };
}

async function evaluate(tasks: SuiteTask[], policy: Policy, rollouts: number, grading: Grading): Promise<{ ms: number; records: RolloutRecord[]; progressEvents: number }> {
  let progressEvents = 0;
  const records: RolloutRecord[] = [];
  const started = performance.now();
  const outcome = await runEvaluation({
    tasks,
    policies: [policy],
    rollouts,
    concurrency: CONCURRENCY,
    budgetUsd: null,
    grading,
    previous: [],
    signal: new AbortController().signal,
    // What a host does with each record: the CLI writes it as one JSON line.
    onRecord: (record) => {
      records.push(JSON.parse(JSON.stringify(record)) as RolloutRecord);
    },
    onProgress: () => {
      progressEvents += 1;
    },
  });
  const ms = performance.now() - started;
  if (outcome.records.length !== tasks.length * rollouts) throw new Error(`expected ${tasks.length * rollouts} records, got ${outcome.records.length}`);
  return { ms, records, progressEvents };
}

/** The same runs with no evaluation around them, at the same concurrency. */
async function bare(tasks: SuiteTask[]): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let task = tasks[next++]; task; task = tasks[next++]) {
      await runOrchestration({ ...paperRun(task), task: task.task, onEvent: () => {} });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - started;
}

export interface EvalBenchResult {
  tasks: number;
  concurrency: number;
  /** Evaluation wall time per task, median of the repeats. */
  perTaskMs: number;
  barePerTaskMs: number;
  overheadPerTaskMs: number;
  summaryMs: number;
  accuracy: number;
  domain: { rollouts: number; perRolloutMs: number; toolCallsPerRollout: number; sandboxPerCallMs: number; accuracy: number };
}

/** The corpus suite under the evaluation runner against the bare runs, and the summary's cost. */
async function corpusBenchmark(): Promise<Omit<EvalBenchResult, 'domain'>> {
  const grading: Grading = { domains: new Map() };
  const policy = policyOf((task) => ({ run: paperRun(task), expertTools: new Set(['search', 'answer', 'enhance_reasoning']) }));
  // Warm up both paths.
  await evaluate(corpusTasks, policy, 1, grading);
  await bare(corpusTasks);
  const evaluated: number[] = [];
  const bares: number[] = [];
  let records: RolloutRecord[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const run = await evaluate(corpusTasks, policy, 1, grading);
    evaluated.push(run.ms / TASKS);
    records = run.records;
    bares.push((await bare(corpusTasks)) / TASKS);
  }
  const summaryTimes: number[] = [];
  let accuracy = 0;
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const report = summarizeEval({ taskIds: corpusTasks.map((t) => t.id), policies: [policy], rollouts: 1, records });
    summaryTimes.push(performance.now() - started);
    accuracy = report.policies[0]?.accuracy ?? 0;
  }
  return {
    tasks: TASKS,
    concurrency: CONCURRENCY,
    perTaskMs: median(evaluated),
    barePerTaskMs: median(bares),
    overheadPerTaskMs: median(evaluated) - median(bares),
    summaryMs: median(summaryTimes),
    accuracy,
  };
}

/** The retail domain: the orchestrator double plays each task's golden actions; and one tool call
 * on its own, call after call: what the sandbox costs a call. */
async function retailBenchmark(): Promise<EvalBenchResult['domain']> {
  const javascript = createNodeJavaScriptRunner();
  const retail = new DomainEnvironment(loadDomainDir(builtInDomainDir('retail')), javascript);
  const domainGrading: Grading = { javascript, domains: new Map([['retail', retail]]) };
  const domainPolicy = policyOf((task) => {
    const actions: GoldenAction[] = task.check?.kind === 'db' ? (task.check.actions ?? []) : [];
    const session = retail.newSession();
    const orchestrator = instantModel('Qwen/Qwen3-8B', (turn) => {
      const action = actions[turn];
      return action ? formatToolCall(action) : '<message>Done.</message>';
    });
    const protocol = createFunctionCallingProtocol({ system: retail.domain.policy, tools: session.tools, experts: [], toolTimeoutMs: 10_000 });
    return {
      run: { ...paperRun(task), protocol, orchestrator: { model: orchestrator, toolMode: 'prompt' } },
      expertTools: new Set(['call_expert']),
      session,
    };
  });
  // Works out the golden states (cached) and warms QuickJS.
  await evaluate(retail.domain.tasks, domainPolicy, 1, domainGrading);
  const domainRuns: number[] = [];
  let domainRecords: RolloutRecord[] = [];
  for (let repeat = 0; repeat < 3; repeat++) {
    const run = await evaluate(retail.domain.tasks, domainPolicy, DOMAIN_ROLLOUTS, domainGrading);
    domainRuns.push(run.ms);
    domainRecords = run.records;
  }
  const session = retail.newSession();
  const sandboxPerCall: number[] = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    await session.call('get_order', { order_id: 'O-5001' });
    sandboxPerCall.push(performance.now() - started);
  }
  const domainRollouts = retail.domain.tasks.length * DOMAIN_ROLLOUTS;
  // Every task's golden replay is cached, so the sandbox runs are the rollouts' own calls.
  const toolCalls = domainRecords.reduce((sum, r) => sum + Object.values(r.toolCounts.tools).reduce((a, b) => a + b, 0), 0);
  return {
    rollouts: domainRollouts,
    perRolloutMs: median(domainRuns) / domainRollouts,
    toolCallsPerRollout: toolCalls / domainRollouts,
    sandboxPerCallMs: median(sandboxPerCall),
    accuracy: domainRecords.filter((r) => r.correct).length / domainRecords.length,
  };
}

export async function runEvalBenchmarks(): Promise<EvalBenchResult> {
  const corpus = await corpusBenchmark();
  return { ...corpus, domain: await retailBenchmark() };
}

export function formatEvalReport(result: EvalBenchResult): string {
  const ms = (x: number) => `${x.toFixed(3)} ms`;
  return [
    `Evaluation (${result.tasks} tasks, concurrency ${result.concurrency}, zero-latency doubles, median of ${REPEATS})`,
    `  per task, evaluated     ${ms(result.perTaskMs)}  (search then answer; accuracy ${(result.accuracy * 100).toFixed(0)}%, as scripted)`,
    `  per task, engine alone  ${ms(result.barePerTaskMs)}`,
    `  evaluation overhead     ${ms(result.overheadPerTaskMs)} per task (grading, records, progress)`,
    `  summary of ${result.tasks} records  ${ms(result.summaryMs)}`,
    `Retail domain (${result.domain.rollouts} rollouts, tools in QuickJS, median of 3)`,
    `  per rollout             ${ms(result.domain.perRolloutMs)}  (${result.domain.toolCallsPerRollout.toFixed(2)} tool calls each; accuracy ${(result.domain.accuracy * 100).toFixed(0)}%)`,
    `  one tool call, alone    ${ms(result.domain.sandboxPerCallMs)}  (median of 30 in a row: a fresh QuickJS instance per call)`,
  ].join('\n');
}
