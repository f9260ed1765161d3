import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadNodeCorpus, loadNodeSampleTasks } from '../../../tools/search/nodeCorpus.ts';
import { createCorpusRetriever } from '../../../tools/search/retriever.ts';
import { parseConfig } from '../../hosts/config.ts';
import type { RunEvent } from '../../engine/events.ts';
import { PREFERENCE_PRESETS, preferenceInstruction, type PreferenceVector } from '../../engine/preferences.ts';
import type { PythonRunner } from '../../engine/ports.ts';
import { runOrchestration } from '../../engine/run.ts';
import { prepareRun } from '../../hosts/prepareRun.ts';
import { checkCode, createDemoModel } from './demoModels.ts';
import { DEMO_NOTICE } from './notice.ts';
import { readQuestion } from './reading.ts';
import { chooseAlias, readPreference, strategyOf, wantsCode, type MenuAlias } from './route.ts';
import type { LoadedBackend } from '../../engine/backendKind.ts';
import { demoKind } from './kind.ts';

const DEMO_CONFIG = JSON.parse(readFileSync(new URL('../../../cli/examples/demo.json', import.meta.url), 'utf8')) as Record<string, unknown>;

/** Records the code it is given and prints a line, as the sandbox would print the check. */
function recordingPython(): PythonRunner & { codes: string[] } {
  const codes: string[] = [];
  return {
    codes,
    async run(code) {
      codes.push(code);
      return { stdout: 'checked\n', stderr: '', error: null, timedOut: false, aborted: false, durationMs: 5, truncated: false };
    },
    async dispose() {},
  };
}

const retriever = createCorpusRetriever(loadNodeCorpus());
/** The demo's backend as the registry loads it, with its scripts answering at once. */
const FAST_DEMO = new Map<string, LoadedBackend>([['demo', { kind: demoKind, create: (request) => ({ model: createDemoModel(request.model, { replyMs: 0 }) }) }]]);

async function runDemo(task: string, preference: PreferenceVector | string) {
  const config = parseConfig({ ...DEMO_CONFIG, preference });
  const python = recordingPython();
  const prepared = prepareRun(config, {
    apiKey: () => undefined,
    retriever,
    searchUsdPerCall: 0,
    python,
    backends: FAST_DEMO,
  });
  const events: RunEvent[] = [];
  const result = await runOrchestration({ ...prepared, task, onEvent: (event) => events.push(event) });
  const route = events.flatMap((event) => (event.type === 'tool_call' ? [`${event.name}:${event.alias ?? ''}`] : []));
  return { result, events, route, python };
}

const menu = (...rows: Array<[alias: string, price: number, latency: number]>): MenuAlias[] =>
  rows.map(([alias, price, latencySeconds]) => ({ alias, price, latencySeconds }));
const SEARCH = menu(['search-1', 11.25, 30], ['search-2', 2.25, 12], ['search-3', 0.4, 5]);

describe('the demo orchestrator’s rules', () => {
  it('reads the presets from the instruction the task carries', () => {
    const strategy = (name: keyof typeof PREFERENCE_PRESETS) => strategyOf(readPreference(`Q?\n\n${preferenceInstruction(PREFERENCE_PRESETS[name])}`));
    expect(strategy('cheapest')).toBe('cheapest');
    expect(strategy('best-answer')).toBe('strongest');
    expect(strategy('balanced')).toBe('middle');
    expect(strategy('fastest')).toBe('fastest');
  });

  it('picks the alias each strategy names', () => {
    const pick = (vector: PreferenceVector) => chooseAlias('search', SEARCH, readPreference(`Q?\n\n${preferenceInstruction(vector)}`))?.alias;
    expect(pick(PREFERENCE_PRESETS.cheapest)).toBe('search-3');
    expect(pick(PREFERENCE_PRESETS['best-answer'])).toBe('search-1');
    expect(pick(PREFERENCE_PRESETS.balanced)).toBe('search-2');
    expect(pick({ outcome: 0.2, cost: 0.2, latency: 0.6, tools: {} })).toBe('search-3');
  });

  it('never chooses what is avoided, and chooses what is preferred first', () => {
    const p = (tools: Record<string, number>) => readPreference(`Q?\n\n${preferenceInstruction({ ...PREFERENCE_PRESETS.cheapest, tools })}`);
    expect(chooseAlias('search', SEARCH, p({ 'search-3': -1 }))?.alias).toBe('search-2');
    expect(chooseAlias('search', SEARCH, p({ search: -1 }))).toBeNull();
    expect(chooseAlias('search', SEARCH, p({ 'search-1': 0.5, 'search-2': -1 }))?.alias).toBe('search-1');
    // Only an answer ends a run: when every answer alias is avoided, one still answers, and says so.
    const forced = chooseAlias('answer', menu(['answer-1', 11, 30]), p({ answer: -1 }), true);
    expect(forced?.alias).toBe('answer-1');
    expect(forced?.why).toContain('only answer ends the run');
  });

  it('runs code under "Best answer" or when enhance_reasoning is preferred, never when it is avoided', () => {
    const tools = ['search', 'enhance_reasoning', 'answer'];
    const p = (vector: PreferenceVector) => readPreference(`Q?\n\n${preferenceInstruction(vector)}`);
    expect(wantsCode(p(PREFERENCE_PRESETS['best-answer']), tools)).toBe(true);
    expect(wantsCode(p(PREFERENCE_PRESETS.cheapest), tools)).toBe(false);
    expect(wantsCode(p({ ...PREFERENCE_PRESETS.cheapest, tools: { enhance_reasoning: 1 } }), tools)).toBe(true);
    expect(wantsCode(p({ ...PREFERENCE_PRESETS['best-answer'], tools: { enhance_reasoning: -1 } }), tools)).toBe(false);
  });

  it('writes a document’s names into Python as string literals, never as code', () => {
    const code = checkCode({ kind: 'figure', label: 'x")\nimport os\nprint("', value: '1,234' });
    expect(code).toContain('print("x\\")\\nimport os\\nprint(\\"" + ":", value)');
    expect(code.split('\n').some((line) => line.startsWith('import'))).toBe(false);
  });
});

describe('the demo provider in a config', () => {
  it('takes no endpoint, key or browser-model field, and a text-writing orchestrator', () => {
    const withDemo = (patch: Record<string, unknown>) => () => parseConfig({ ...DEMO_CONFIG, ...patch });
    expect(withDemo({ providers: { demo: { kind: 'demo', baseUrl: 'http://127.0.0.1:1/v1' } } })).toThrow(/providers\.demo\.baseUrl: is not used by the demo provider/);
    expect(withDemo({ providers: { demo: { kind: 'demo', apiKeyEnv: 'KEY' } } })).toThrow(/apiKeyEnv/);
    expect(withDemo({ providers: { demo: { kind: 'demo', contextWindow: 4096 } } })).toThrow(/contextWindow/);
    expect(withDemo({ orchestrator: { provider: 'demo', model: 'scripted-orchestrator', toolMode: 'server' } })).toThrow(/toolMode "prompt"/);
  });

  it('is refused where no host loaded the demo, saying so', () => {
    expect(() => prepareRun(parseConfig(DEMO_CONFIG), { apiKey: () => undefined, backends: new Map(), retriever, python: recordingPython() })).toThrow(
      'Provider "demo" is the scripted demo, which was not loaded here.',
    );
  });
});

describe('the demo on the engine, over the real corpus', () => {
  const tasks = loadNodeSampleTasks();

  it('reads every built-in sample question', () => {
    expect(tasks.every((task) => readQuestion(task.question) !== null)).toBe(true);
  });

  it('answers every sample task with its own answer from the corpus, cheaply: search and the cheap expert', async () => {
    const wrong: string[] = [];
    for (const task of tasks) {
      const { result, route } = await runDemo(task.question, 'cheapest');
      if (result.answer !== task.answer) wrong.push(`${task.id}: ${result.answer} (${route.join(' ')})`);
      expect(route.every((step) => step === 'search:search-3' || step === 'answer:answer-3')).toBe(true);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('answers every sample task under "Best answer" with the strong experts and a Python check', async () => {
    const wrong: string[] = [];
    for (const task of tasks) {
      const { result, route, python } = await runDemo(task.question, 'best-answer');
      if (result.answer !== task.answer) wrong.push(`${task.id}: ${result.answer} (${route.join(' ')})`);
      expect(route.at(-2)).toBe('enhance_reasoning:reasoner-1');
      expect(route.at(-1)).toBe('answer:answer-1');
      expect(python.codes).toHaveLength(1);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('gives different routes and costs for "Cheapest" and "Best answer", and says it is a script', async () => {
    const task = tasks.find((t) => t.id.startsWith('neighbour-capital-population'))!;
    const cheap = await runDemo(task.question, 'cheapest');
    const best = await runDemo(task.question, 'best-answer');
    expect(cheap.route).not.toEqual(best.route);
    expect(best.result.totals.costUsd).toBeGreaterThan(cheap.result.totals.costUsd * 2);
    // No tokenizer counted the scripts' tokens: their cost is an estimate, and says so.
    expect(cheap.result.totals.hasEstimates).toBe(true);
    const started = cheap.events.find((event) => event.type === 'run_started');
    expect(started && 'orchestratorNotice' in started && started.orchestratorNotice).toBe(DEMO_NOTICE);
  });

  it('takes four different routes under the four presets: the cheapest is not the fastest (issue 24, item 7)', async () => {
    const task = tasks.find((t) => t.id.startsWith('neighbour-capital-population'))!;
    const presets = ['cheapest', 'fastest', 'balanced', 'best-answer'] as const;
    const runs = Object.fromEntries(await Promise.all(presets.map(async (preset) => [preset, await runDemo(task.question, preset)] as const)));
    for (const preset of presets) expect(runs[preset]!.result.answer, preset).toBe(task.answer);
    expect(runs.cheapest!.route.at(-1)).toBe('answer:answer-3');
    expect(runs.fastest!.route.at(-1)).toBe('answer:answer-4');
    expect(runs.balanced!.route.at(-1)).toBe('answer:answer-2');
    expect(runs['best-answer']!.route.at(-1)).toBe('answer:answer-1');
    expect(new Set(presets.map((preset) => runs[preset]!.route.join(' '))).size).toBe(4);
    // Cheapest is the cheapest run; the fast hosted model costs more than the slow small one.
    const cost = (preset: (typeof presets)[number]) => runs[preset]!.result.totals.costUsd;
    expect(cost('cheapest')).toBeLessThan(cost('fastest'));
    expect(cost('cheapest')).toBeLessThan(cost('balanced'));
  });

  it('says, under the function-calling protocol, that it scripts the paper protocol only', async () => {
    const config = parseConfig({ ...DEMO_CONFIG, protocol: 'function-calling' });
    const prepared = prepareRun(config, { apiKey: () => undefined, backends: FAST_DEMO, retriever, python: recordingPython() });
    const result = await runOrchestration({ ...prepared, task: tasks[0]!.question, onEvent: () => {} });
    expect(result.stopReason).toBe('final_message');
    expect(result.answer).toContain('paper protocol only');
  });

  it('says so when a task is not one of the sample questions, instead of inventing an answer', async () => {
    const { result, route } = await runDemo('Who wrote Hamlet?', 'balanced');
    expect(route).toEqual(['search:search-2', 'answer:answer-2']);
    expect(result.answer).toBe('unknown');
  });
});
