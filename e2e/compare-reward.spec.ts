// Compare's reward, read where it stands (issue 24, item 14): the paper's group reward normalises
// every weighed figure over the runs compared, so with two runs each figure is all (1) or nothing
// (0), and a right run can score 0. Each reward says why in words beside the number, each term is a
// row with its weight, and figures no preference weighs (the calls per alias) are not listed as if
// they counted.

import type { Page } from '@playwright/test';
import type { ScriptedServer } from '../cli/scripted/scriptedServer.ts';
import { expect, loadScenario, scriptedConfig, test, type Playground } from './support/playground.ts';

const TASK = 'What is the population of the capital of Finland?';
const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';

test.describe.configure({ timeout: 120_000 });
test.use({ viewport: { width: 1280, height: 800 } });

async function run(playground: Playground): Promise<void> {
  await playground.run(TASK);
  await playground.waitForFinish(60_000);
  await expect(playground.runStatus).toContainText('Answered');
}

/** Two right runs of one task, compared: the second answers through the dearer answer-1, and
 * slower. (A first run warms the page up: the first run of a page is the slowest.) */
async function twoRightRuns(page: Page, playground: Playground, server: ScriptedServer): Promise<void> {
  const scenario = loadScenario('cli-paper-server');
  await playground.open();
  const base = scriptedConfig(server.url);
  await playground.importConfig({ ...base, orchestrator: { ...(base.orchestrator as object), toolMode: 'server' } });
  await run(playground);
  await run(playground);
  server.reset({
    models: {
      ...scenario.models,
      [ORCHESTRATOR]: scenario.models[ORCHESTRATOR]!.map((response) =>
        response.when ? { ...response, toolCalls: [{ name: 'answer', arguments: { model: 'answer-1' } }] } : response,
      ),
      'scripted/answerer': [{ repeat: true, content: '<answer>558,457</answer>', usage: { prompt_tokens: 2010, completion_tokens: 9 }, fault: { kind: 'slow_first_byte', delayMs: 1_500, times: 1 } }],
    },
  });
  await run(playground);
  const history = await playground.openTab('History');
  const rows = history.getByRole('list', { name: 'Stored runs' }).getByRole('article');
  await expect(rows).toHaveCount(3);
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await history.getByRole('button', { name: 'Compare 2' }).click();
}

test('a right run that scores 0 says why beside the number; only weighed figures are listed', async ({ page, playground, scripted }) => {
  const server = await scripted.start(loadScenario('cli-paper-server'));
  await twoRightRuns(page, playground, server);
  const compare = page.getByRole('region', { name: 'Compare runs' });
  const row = (label: string | RegExp) => compare.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label }) });
  const rewardCells = row(/^Reward/).getByRole('cell');

  // "Best answer" weighs being right only, and both are right: nothing tells them apart.
  await compare.getByRole('combobox', { name: /Reward under/ }).selectOption('best-answer');
  await expect(rewardCells).toHaveCount(2);
  for (const cell of await rewardCells.all()) {
    await expect(cell).toContainText('0.000');
    await expect(cell).toContainText('Right');
    await expect(cell).toContainText('both runs are right');
  }

  // "Cheapest": the newer run (answer-1) is the dearer and the slower, so it scores 0 though right.
  await compare.getByRole('combobox', { name: /Reward under/ }).selectOption('cheapest');
  const [newer, older] = await rewardCells.all();
  await expect(newer!).toContainText('0.000');
  await expect(newer!).toContainText('Right');
  await expect(newer!).toContainText('the dearer');
  await expect(newer!).toContainText('the slower');
  await expect(older!).toContainText('0.700');
  await expect(older!).toContainText('the cheaper');
  // Why all or nothing, at the reward itself, not in a footnote.
  await expect(compare.getByRole('row').filter({ hasText: 'With two runs that is all or nothing' })).toBeVisible();
  // Each weighed term is a row with its weight; the calls per alias weigh nothing here and are not listed.
  await expect(row(/^Cost, weight 0\.6/).getByRole('cell')).toHaveText([/^0 /, /^0\.6 /]);
  await expect(row(/^Time, weight 0\.1/).getByRole('cell')).toHaveText([/^0 /, /^0\.1 /]);
  await expect(compare.getByRole('rowheader', { name: /answer-[12]/ })).toHaveCount(0);
  await expect(compare.getByText(/normalised\)/)).toHaveCount(0);
  await rewardCells.first().evaluate((cell) => cell.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: test.info().outputPath('compare-reward-1280x800.png') });
});
