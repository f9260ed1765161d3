// The Evaluate tab: a suite of 20 corpus tasks under three policies, run in the real page and
// orchestrator worker against the scripted server, reports the figures worked out by hand — the
// same ones cli/eval.test.ts asserts for `orchestra eval` — and each rollout is a stored run. The
// CLI's own results file and summary import and draw the same table.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { makeTempDir, runCli, writeConfig } from './fixtures/cliHarness.ts';
import { corpusEvalScenario, EVAL_TASKS, evalSuiteJsonl, WRONG_FROM } from './fixtures/evalScenario.ts';
import type { EvalSummary } from '../workers/eval/results.ts';
import { expect, scriptedConfig, test } from './support/playground.ts';

// Sixty rollouts through the page and the worker on a loaded two-core box.
test.describe.configure({ timeout: 120_000 });

/** A policy's row of the results table, as its cells read. */
async function policyRow(panel: Locator, policy: string): Promise<string[]> {
  const row = panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('table', { name: 'Results per policy' }).locator(`tr[data-policy="${policy}"]`);
  return (await row.locator('th, td').allInnerTexts()).map((text) => text.trim());
}

/** The figures cli/eval.test.ts works out by hand for the three policies. */
async function expectHandWorkedTable(panel: Locator): Promise<void> {
  // The orchestrator: per task 1,000 + 20 tokens at $0.20/M, then the cheap expert's 500 at $0.25/M
  // and 6 at $2/M: $0.000204 + $0.000137 = $0.000341; 15 of 20 right; $0.00682 / 15 per correct one.
  expect(await policyRow(panel, 'orchestrator')).toEqual(['orchestrator', '15/20', '75.0% (53.1%–88.8%)', '$0.000341', expect.any(String), '$0.000455', 'answer-2 100%']);
  // The strongest expert alone: 300 and 10 tokens at $1.25/M and $10/M, $0.000475; all right. On the front.
  expect(await policyRow(panel, 'strongest')).toEqual(['★ strongest', '20/20', '100.0% (83.9%–100.0%)', '$0.000475', expect.any(String), '$0.000475', '—']);
  // The cheapest alone: $0.000137 a task, the same 15 right, the cheapest point of the front.
  expect(await policyRow(panel, 'cheapest')).toEqual(['★ cheapest', '15/20', '75.0% (53.1%–88.8%)', '$0.000137', expect.any(String), '$0.000183', '—']);
}

async function openEvaluate(page: Page): Promise<Locator> {
  await page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name: 'Evaluate' }).click();
  return page.getByRole('tabpanel', { name: 'Evaluate' });
}

test('runs 20 corpus tasks under three policies: the accuracy and cost worked out by hand, each rollout a stored run', async ({ playground, page, scripted }) => {
  const server = await scripted.start(corpusEvalScenario());
  await playground.open();
  await playground.importConfig(scriptedConfig(server.url));
  const panel = await openEvaluate(page);

  // The built-in suites are listed and read by the worker.
  await expect(panel.getByLabel('Suite contents')).toContainText('50 tasks');
  // A domain's tasks, from the files bundled into the worker: graded by the database they leave.
  await panel.getByRole('combobox', { name: 'Suite' }).selectOption('retail');
  await expect(panel.getByLabel('Suite contents')).toContainText('24 tasks · checks: db 24 · domain: retail');
  // A suite file with a broken line is refused, the line named.
  const chooser = page.waitForEvent('filechooser');
  await panel.getByRole('button', { name: 'Import suite…' }).click();
  await (await chooser).setFiles({ name: 'broken.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from('{"id": "a", "task": "Q?", "answer": "x"}\n{"id": "a", "task": "R?", "answer": "y"}\n') });
  await expect(panel.getByRole('alert', { name: 'Suite problems' })).toContainText('line 2: the id "a" is already used on line 1');
  await expect(panel.getByRole('button', { name: 'Run evaluation' })).toBeEnabled();

  // Dropped on the suite's box: the 20 tasks.
  const drop = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'corpus-20.jsonl', { type: 'application/jsonl' }));
    return transfer;
  }, evalSuiteJsonl());
  await panel.getByRole('group', { name: 'Suite' }).dispatchEvent('drop', { dataTransfer: drop });
  await expect(panel.getByLabel('Suite contents')).toContainText('20 tasks · checks: exact 20');
  await expect(panel.getByRole('combobox', { name: 'Suite' })).toHaveValue('file');

  // The orchestrator and the two experts alone (the default choice), four at a time.
  await expect(panel.getByRole('checkbox', { name: /^Orchestrator/ })).toBeChecked();
  await expect(panel.getByRole('checkbox', { name: /^Strongest expert alone/ })).toBeChecked();
  await expect(panel.getByRole('checkbox', { name: /^Cheapest expert alone/ })).toBeChecked();
  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  const progress = panel.getByRole('status', { name: 'Evaluation progress' });
  await expect(progress).toContainText('of 60 rollouts');
  await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText('Done: 60 rollouts run.', { timeout: 100_000 });
  // 50 of 60 right; $0.00682 + $0.0095 + $0.00274 spent.
  await expect(progress).toContainText('60 of 60 rollouts · $0.0191 spent');

  await expectHandWorkedTable(panel);
  await expect(panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('figure', { name: 'Accuracy against cost' })).toBeVisible();
  await expect(panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('figure', { name: 'Accuracy against cost' }).locator('.recharts-scatter-symbol')).not.toHaveCount(0);
  // The baselines call no tool: no share bars to draw for them, one for the orchestrator.
  await expect(panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('figure', { name: 'Tool-call shares' })).toBeVisible();
  // Per task: the orchestrator and the cheap expert behind it, then each expert alone (CORS preflights aside).
  expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(80);

  await panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('heading', { name: /^Results/ }).evaluate((heading) => heading.scrollIntoView());
  await page.screenshot({ path: test.info().outputPath('evaluate.png') });

  // Every verdict says why; the wrong one opens as its stored run.
  await panel.page().getByRole('region', { name: 'Evaluation results' }).getByText('Every rollout (60)').click();
  const wrongTask = EVAL_TASKS[WRONG_FROM]!;
  const wrong = panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('list', { name: 'Rollouts' }).getByRole('listitem').filter({ hasText: `${wrongTask.id} · orchestrator` });
  await expect(wrong).toContainText(`exact: "0" is not "${wrongTask.answer}"`);
  await wrong.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByTestId('stored-run-banner')).toBeVisible();
  // The orchestrator's rollout as recorded: one step to the cheap expert, its wrong answer, its cost.
  await expect(playground.steps()).toHaveCount(1);
  await expect(playground.trace).toContainText('answer → answer-2');
  await expect(playground.trace).toContainText('1 step · ');
  await expect(playground.trace).toContainText('$0.000341');
  // The stored run took the centre; closed, the results are back in it.
  await page.getByTestId('stored-run-banner').getByRole('button', { name: 'Close' }).click();
  await expect(panel.page().getByRole('region', { name: 'Evaluation results' })).toBeVisible();

  // The table as CSV: the CLI's columns and figures.
  const download = page.waitForEvent('download');
  await panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('button', { name: 'Export CSV' }).click();
  const csv = (await readFile(await (await download).path(), 'utf8')).trim().split('\n');
  expect(csv).toHaveLength(4);
  expect(csv[1]).toMatch(/^orchestrator,.*,20,20,15,0\.75,/);

  // Each rollout is a run of the history.
  await page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name: 'History' }).click();
  await expect(page.getByRole('tabpanel', { name: 'History' }).getByRole('list', { name: 'Stored runs' }).getByRole('article').first()).toBeVisible();
});

test('imports what `orchestra eval` wrote — its results file and its --json summary — and draws the same table', async ({ page, scripted }) => {
  const server = await scripted.start(corpusEvalScenario());
  const dir = makeTempDir();
  const suite = join(dir, 'corpus-20.jsonl');
  await import('node:fs/promises').then(({ writeFile }) => writeFile(suite, evalSuiteJsonl()));
  const { path } = writeConfig(dir, 'local-scripted.json', server.url);
  const out = join(dir, 'results.jsonl');
  const cli = await runCli(['eval', '--config', path, '--suite', suite, '--out', out, '--policy', 'orchestrator', '--policy', 'strongest', '--policy', 'cheapest', '--concurrency', '4', '--json']);
  expect(cli.code).toBe(0);
  const summary = JSON.parse(cli.stdout.trim().split('\n').at(-1)!) as EvalSummary;
  const jsonOut = join(dir, 'summary.jsonl');
  await import('node:fs/promises').then(({ writeFile }) => writeFile(jsonOut, cli.stdout));

  await page.goto('/');
  const panel = await openEvaluate(page);
  const results = panel.page().getByRole('region', { name: 'Evaluation results' }).getByLabel('Results file to import');
  await results.setInputFiles(out);
  await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText('Imported "results.jsonl": 3 policies, 60 rollouts.');
  await expectHandWorkedTable(panel);
  // The same mean latencies the CLI reported (the records carry them).
  for (const policy of summary.policies) expect((await policyRow(panel, policy.name))[4]).not.toBe('—');
  await expect(panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('figure', { name: 'Accuracy against cost' })).toBeVisible();
  // Each chart saves as a file of its own: an SVG that needs no page (its colours written in, the
  // policies' names as text) and a PNG.
  const [svgDownload] = await Promise.all([
    page.waitForEvent('download'),
    panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('button', { name: 'Download the accuracy-against-cost chart as SVG' }).click(),
  ]);
  expect(svgDownload.suggestedFilename()).toBe('accuracy-against-cost.svg');
  const svg = await readFile(await svgDownload.path(), 'utf8');
  expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(svg).toContain('<title>Accuracy against cost</title>');
  for (const policy of summary.policies) expect(svg).toContain(`>${policy.name}<`);
  expect(svg).not.toContain('var(--');
  const [pngDownload] = await Promise.all([
    page.waitForEvent('download'),
    panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('button', { name: 'Download the tool-call shares chart as PNG' }).click(),
  ]);
  expect(pngDownload.suggestedFilename()).toBe('tool-call-shares.png');
  const png = await readFile(await pngDownload.path());
  // Kept beside the screenshots, to be looked at.
  await pngDownload.saveAs(test.info().outputPath('tool-call-shares.png'));
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.length).toBeGreaterThan(2_000);
  await panel.page().getByRole('region', { name: 'Evaluation results' }).getByText('Every rollout (60)').click();
  // Runs of the CLI are not in this browser's history: nothing to open.
  await expect(panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('list', { name: 'Rollouts' }).getByRole('button', { name: 'Open' })).toHaveCount(0);

  await results.setInputFiles(jsonOut);
  await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText('Imported "summary.jsonl": 3 policies.');
  await expectHandWorkedTable(panel);

  // A --report with a task's group of two rollouts shows the group's rewards; a group whose figures
  // are not numbers (a hostile or broken file) shows none of them, and nothing of it runs.
  const reward = { rewards: [0.9, 0.1], advantages: [0.707, -0.707], mean: 0.5, std: 0.566, lowSpread: false, tooSmall: true, normalized: [{ outcome: 1, cost: 0.25 }, { outcome: 0, cost: 1 }], skippedFeatures: ['latency'] };
  const report = {
    ...summary,
    groups: [
      { policy: 'orchestrator', taskId: 'task-a', rollouts: 2, correct: 1, reward },
      { policy: 'orchestrator', taskId: 'task-b', rollouts: 2, correct: 1, reward: { ...reward, rewards: ['<img src=x onerror=alert(1)>', 0] } },
    ],
  };
  await results.setInputFiles({ name: 'report.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(report)) });
  await expectHandWorkedTable(panel);
  await panel.page().getByRole('region', { name: 'Evaluation results' }).getByText('Group rewards per task (1)').click();
  const group = panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('region', { name: 'Group task-a under orchestrator' });
  await expect(group).toContainText('1 of 2 correct · mean 0.500 · std 0.566 · fewer than 3 rollouts · no spread in latency (left out)');
  await expect(group.getByRole('row').nth(1)).toHaveText(['#1', '0.900', '0.707', '1.00', '0.25'].join(''));
  await expect(group.getByRole('row').nth(2)).toHaveText(['#2', '0.100', '-0.707', '0.00', '1.00'].join(''));
  await expect(panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('region', { name: /task-b/ })).toHaveCount(0);
  // For docs/evaluation.md ("Reading the charts").
  await panel.page().getByRole('region', { name: 'Evaluation results' }).locator('details.eval-groups').screenshot({ path: test.info().outputPath('group-rewards.png') });

  // Anything else is refused, saying what would do.
  await results.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
  await expect(panel.getByRole('alert', { name: 'Evaluation notice' })).toContainText('It is none of what "orchestra eval" writes');
});

test('Stop ends the rollouts in flight, and Resume runs only what is missing, to the same figures', async ({ playground, page, scripted }) => {
  // The strong expert streams its answer slowly, so a Stop lands mid-evaluation.
  const scenario = corpusEvalScenario();
  scenario.models['scripted/answerer'] = scenario.models['scripted/answerer']!.map((response) => ({ ...response, chunkSize: 2, chunkDelayMs: 60 }));
  const server = await scripted.start(scenario);
  await playground.open();
  await playground.importConfig(scriptedConfig(server.url));
  const panel = await openEvaluate(page);
  await panel.getByLabel('Suite file to import').setInputFiles({ name: 'corpus-20.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(evalSuiteJsonl()) });
  await expect(panel.getByLabel('Suite contents')).toContainText('20 tasks');
  await panel.getByRole('checkbox', { name: /^Orchestrator/ }).uncheck();
  await panel.getByRole('checkbox', { name: /^Cheapest expert alone/ }).uncheck();
  await panel.getByRole('spinbutton', { name: 'Concurrency' }).fill('1');

  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  const progress = panel.getByRole('status', { name: 'Evaluation progress' });
  await expect(progress).toContainText('3 of 20 rollouts', { timeout: 60_000 });
  await panel.getByRole('button', { name: 'Stop evaluation' }).click();
  const notice = panel.getByRole('status', { name: 'Evaluation notice' });
  await expect(notice).toContainText('Stopped:');
  await expect(notice).toContainText('not run (Resume runs them)');
  const kept = Number(/(\d+) of 20 rollouts/.exec((await progress.textContent()) ?? '')?.[1]);
  expect(kept).toBeGreaterThanOrEqual(3);
  expect(kept).toBeLessThan(20);

  await panel.getByRole('button', { name: 'Resume' }).click();
  await expect(notice).toContainText(`Done: ${20 - kept} rollouts run, ${kept} kept from before.`, { timeout: 100_000 });
  expect(await policyRow(panel, 'strongest')).toEqual(['★ strongest', '20/20', '100.0% (83.9%–100.0%)', '$0.000475', expect.any(String), '$0.000475', '—']);
  // Each task was asked once, and once more at most for the rollout the Stop cut off.
  const asked = server.requests.filter((request) => request.method === 'POST').length;
  expect(asked).toBeGreaterThanOrEqual(20);
  expect(asked).toBeLessThanOrEqual(21);
});
