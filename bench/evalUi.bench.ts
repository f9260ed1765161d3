// The Evaluate tab under load (`npm run bench -- --only eval-ui`): the production build in
// Chromium runs a 200-task suite at concurrency 8 against the scripted server answering at once
// (each task: the orchestrator hands it to the cheap expert, which answers), so what is measured is
// the playground's own work: the worker's engine and evaluation, each rollout recorded in the run
// history, and the tab's progress and results redrawing as rollouts finish. It reports the page's
// main-thread long tasks from the tab's opening (its code loads and its charts warm up then) to
// the end (by wall clock and by the thread's own CPU, from a Chromium trace) and the time per
// rollout. Prints figures and the target (no long task); asserts nothing.

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startScriptedServer } from '../cli/scripted/scriptedServer.ts';
import type { Scenario } from '../cli/scripted/scenario.ts';
import { scriptedConfig } from '../e2e/support/playground.ts';
import { attributeLongTasks, formatAttribution, sourceMapResolver, type CpuProfile, type LongTaskAttribution } from './longTaskProfile.ts';
import { mainThreadTasksOf, recordLongTasks, traceToFile, type MainThreadTasks } from './mainThreadTasks.ts';
import { previewInChromium } from './previewServer.ts';

export const EVAL_UI_TASKS = 200;
export const EVAL_UI_CONCURRENCY = 8;
const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';

export interface EvalUiBenchResult {
  tasks: number;
  concurrency: number;
  /** From Run evaluation to "Done", on the page's clock. */
  wallMs: number;
  /** From opening the tab to "Done": the span the trace and the long-task counts cover. */
  tracedMs: number;
  perRolloutMs: number;
  /** Long tasks (> 50 ms) the page's PerformanceObserver saw in that span (wall clock). */
  observedLongTasks: number;
  observedLongestMs: number;
  trace: MainThreadTasks;
  loadBefore: number;
  loadAfter: number;
  /** With --profile: where the long tasks' time went (the profiler adds overhead of its own). */
  profile?: LongTaskAttribution;
}

/** Question i, answered "i" by the cheap expert (every task right: grading is part of the work). */
function suite(): { jsonl: string; scenario: Scenario } {
  const tasks = Array.from({ length: EVAL_UI_TASKS }, (_, index) => ({ id: `t${index + 1}`, task: `Bench question number ${index + 1}: what is it?`, answer: String(index + 1) }));
  const call = '<think>The answer expert can do this.</think>\n<tool_call>\n{"name": "answer", "arguments": {"model": "answer-2"}}\n</tool_call>';
  return {
    jsonl: tasks.map((task) => `${JSON.stringify(task)}\n`).join(''),
    scenario: {
      models: {
        [ORCHESTRATOR]: [{ repeat: true, content: call, usage: { prompt_tokens: 1000, completion_tokens: 20 } }],
        'scripted/answerer-mini': tasks.map((task) => ({ when: task.task, repeat: true, content: `<answer>${task.answer}</answer>`, usage: { prompt_tokens: 500, completion_tokens: 6 } })),
      },
    },
  };
}

export async function runEvalUiBenchmark(options: { distDir?: string; profile?: boolean; log: (line: string) => void }): Promise<EvalUiBenchResult> {
  const { distDir, preview, browser, close } = await previewInChromium(options);
  const { jsonl, scenario } = suite();
  const server = await startScriptedServer({ scenario });
  const traceDir = mkdtempSync(join(tmpdir(), 'orchestra-bench-eval-trace-'));
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await recordLongTasks(page);
    await page.goto(preview.url);
    await page.getByRole('textbox', { name: 'Task' }).waitFor({ timeout: 30_000 });
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import config' }).click();
    await (await chooser).setFiles({ name: 'bench-config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scriptedConfig(server.url))) });

    // Traced from the tab's opening: its charts' warm-up in idle time is part of what it costs.
    const loadBefore = loadavg()[0] ?? 0;
    const traceFile = join(traceDir, 'eval.json');
    const trace = await traceToFile(cdp, traceFile);
    const openedAt = await page.evaluate(() => performance.now());
    const panel = await openEvaluate(page);
    const suiteChooser = page.waitForEvent('filechooser');
    await panel.getByRole('button', { name: 'Import suite…' }).click();
    await (await suiteChooser).setFiles({ name: 'bench-200.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(jsonl) });
    await panel.getByLabel('Suite contents').getByText(`${EVAL_UI_TASKS} tasks`).waitFor({ timeout: 30_000 });
    // The orchestrator alone, eight at a time.
    await panel.getByRole('checkbox', { name: /^Strongest expert alone/ }).uncheck();
    await panel.getByRole('checkbox', { name: /^Cheapest expert alone/ }).uncheck();
    await panel.getByLabel('Concurrency').fill(String(EVAL_UI_CONCURRENCY));

    options.log(`Running ${EVAL_UI_TASKS} tasks at concurrency ${EVAL_UI_CONCURRENCY} in the Evaluate tab, traced …`);
    if (options.profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    const startedAt = await page.evaluate(() => performance.now());
    await panel.getByRole('button', { name: 'Run evaluation' }).click();
    await panel.getByRole('status', { name: 'Evaluation notice' }).getByText(`Done: ${EVAL_UI_TASKS} rollouts run.`).waitFor({ timeout: 600_000 });
    const endedAt = await page.evaluate(() => performance.now());
    const cpuProfile = options.profile ? ((await cdp.send('Profiler.stop')).profile as CpuProfile) : undefined;
    await trace.stop();
    const loadAfter = loadavg()[0] ?? 0;
    // Long tasks are reported after they end: a moment, then those that began during the run.
    await page.waitForTimeout(200);
    const observed = await page.evaluate(
      ([from, to]) => (window as unknown as { __longTasks: Array<{ startTime: number; duration: number }> }).__longTasks.filter((task) => task.startTime >= from && task.startTime <= to),
      [openedAt, endedAt] as const,
    );
    const wallMs = endedAt - startedAt;
    return {
      tasks: EVAL_UI_TASKS,
      concurrency: EVAL_UI_CONCURRENCY,
      wallMs,
      tracedMs: endedAt - openedAt,
      perRolloutMs: wallMs / EVAL_UI_TASKS,
      observedLongTasks: observed.length,
      observedLongestMs: Math.max(0, ...observed.map((task) => task.duration)),
      trace: await mainThreadTasksOf(traceFile),
      loadBefore,
      loadAfter,
      ...(cpuProfile ? { profile: attributeLongTasks(cpuProfile, sourceMapResolver(preview.url, distDir)) } : {}),
    };
  } finally {
    await server.close();
    await close();
    rmSync(traceDir, { recursive: true, force: true });
  }
}

async function openEvaluate(page: Page) {
  await page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name: 'Evaluate' }).click();
  return page.getByRole('tabpanel', { name: 'Evaluate' });
}

export function formatEvalUiReport(result: EvalUiBenchResult): string {
  const { trace } = result;
  const meets = trace.longByCpu === 0 ? 'meets' : 'MISSES';
  return [
    `Evaluate tab: ${result.tasks} tasks at concurrency ${result.concurrency} against the scripted server (load ${result.loadBefore.toFixed(1)} → ${result.loadAfter.toFixed(1)})`,
    `  whole run           ${(result.wallMs / 1000).toFixed(1)} s, ${result.perRolloutMs.toFixed(0)} ms a rollout (worker, recording and the tab together)`,
    `  long tasks (> 50 ms) by wall clock   ${trace.longByWall} (longest ${trace.maxWallMs.toFixed(0)} ms; the page's observer saw ${result.observedLongTasks}, longest ${result.observedLongestMs.toFixed(0)} ms)`,
    `  long tasks (> 50 ms) by CPU          ${trace.longByCpu} (longest ${trace.maxCpuMs.toFixed(0)} ms) — ${meets} the no-long-task target`,
    `  main thread busy    ${(trace.cpuMs / 1000).toFixed(1)} s of CPU in ${trace.tasks} tasks from opening the tab to Done (${((trace.cpuMs / result.tracedMs) * 100).toFixed(0)}% of its ${(result.tracedMs / 1000).toFixed(1)} s)`,
    ...(result.profile ? formatAttribution(result.profile) : []),
  ].join('\n');
}
