// The cost panel and the preference panel in the real page, worker and engine, against the
// scripted OpenAI-compatible server: the total and its breakdown are the scenario's usage times
// the configured prices; an unknown price reads "unknown"; preferences change the instruction and
// the next run sends it; the cost charts need no chart library, and recharts stays out of the
// first load.

import type { Locator, Page, Response } from '@playwright/test';
import { formatUsd } from '../workers/engine/format.ts';
import { PREFERENCE_PRESETS, preferenceInstruction } from '../workers/engine/preferences.ts';
import type { RecordedRequest, ScriptedServer } from '../cli/scripted/scriptedServer.ts';
import type { Scenario } from '../cli/scripted/scenario.ts';
import { expect, loadScenario, scriptedConfig, test } from './support/playground.ts';

const TASK = 'What is the population of the capital of Finland?';
const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';

type Prices = Record<string, { inputPerM: number; outputPerM: number }>;

// Prices large enough that every figure shows four significant digits, different per model so a
// call charged to the wrong model shows, and chosen so no figure the test checks falls on a
// rounding tie ($0.xxxx5), where summing in another order could round it the other way.
const PRICES: Prices = {
  [ORCHESTRATOR]: { inputPerM: 30, outputPerM: 70 },
  'scripted/searcher': { inputPerM: 25, outputPerM: 210 },
  'scripted/coder': { inputPerM: 80, outputPerM: 80 },
  'scripted/answerer': { inputPerM: 125, outputPerM: 1000 },
  'scripted/answerer-mini': { inputPerM: 42, outputPerM: 160 },
};

/** local-scripted.json with the orchestrator's tool calls parsed by the server (this scenario
 * answers `tool_calls`), at `prices`. */
function configFor(server: ScriptedServer, prices: Prices): Record<string, unknown> {
  const base = scriptedConfig(server.url);
  return {
    ...base,
    orchestrator: { ...(base.orchestrator as object), toolMode: 'server' },
    pricing: { asOf: '2025-11-26', source: 'test prices', models: prices },
  };
}

interface Charge {
  model: string;
  promptTokens: number;
  completionTokens: number;
}

/** What the server served, request by request: the response it picked for each chat request,
 * found the way the server picks (the first response whose `when` the last user message holds). */
function chargesOf(requests: RecordedRequest[], scenario: Scenario): Charge[] {
  return requests
    .filter((request) => request.method === 'POST' && request.path === '/v1/chat/completions')
    .map((request) => {
      const body = request.body as { model: string; messages: Array<{ role: string; content: unknown }> };
      const lastUser = String([...body.messages].reverse().find((message) => message.role === 'user')?.content ?? '');
      const response = scenario.models[body.model]?.find((candidate) => candidate.when === undefined || lastUser.includes(candidate.when));
      if (!response?.usage) throw new Error(`the scenario has no usage for ${body.model}`);
      return { model: body.model, promptTokens: response.usage.prompt_tokens, completionTokens: response.usage.completion_tokens };
    });
}

const costAt = (charge: Charge, price: { inputPerM: number; outputPerM: number }) =>
  (charge.promptTokens * price.inputPerM + charge.completionTokens * price.outputPerM) / 1e6;

/** The text of every chat request the orchestrator got. */
function orchestratorPrompts(server: ScriptedServer): string[] {
  return server.requests
    .filter(
      (request) =>
        request.method === 'POST' && request.path === '/v1/chat/completions' && (request.body as { model?: string }).model === ORCHESTRATOR,
    )
    .map((request) => JSON.stringify(request.body));
}

/** Records the JavaScript the page loads, with its text. A response whose body the browser has
 * already let go (the page navigated on, as opening the playground may) is read again by its URL:
 * the assets are static, and a script left unread would slip past the checks on its text. */
function recordScripts(page: Page): Array<Promise<{ url: string; text: string }>> {
  const scripts: Array<Promise<{ url: string; text: string }>> = [];
  page.on('response', (response: Response) => {
    const url = response.url();
    if (!new URL(url).pathname.endsWith('.js')) return;
    const text = response.text().catch(async () => (await page.request.get(url)).text());
    scripts.push(text.then((body) => ({ url, text: body })));
  });
  return scripts;
}

// A run's first search builds the corpus index in the worker: on a busy machine a run can take
// a good part of the default 30 s.
const RUN_TIMEOUT_MS = 60_000;
test.describe.configure({ timeout: 2 * RUN_TIMEOUT_MS });

// recharts' own class name: present in any chunk that holds recharts, minified or not.
const RECHARTS_MARK = 'recharts-surface';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The bars the per-step chart draws: one subpath each in its bars' path. */
async function barsOf(figure: Locator): Promise<number> {
  const d = (await figure.locator('path.step-chart-bars').getAttribute('d')) ?? '';
  return (d.match(/M/g) ?? []).length;
}

test.describe('cost and latency', () => {
  test('the total and its breakdown are the usage times the configured prices; no recharts for the cost charts', async ({
    page,
    playground,
    scripted,
    consoleErrors,
  }) => {
    const scenario = loadScenario('cli-paper-server');
    const server = await scripted.start(scenario);
    const scripts = recordScripts(page);
    const cost = page.getByRole('region', { name: 'Cost and latency' });

    await playground.open();
    await playground.importConfig(configFor(server, PRICES));
    await expect(playground.totalCost).toHaveText('—');
    await expect(cost).toContainText('Run a task to see what every call costs');

    // Nothing of recharts in the first load: index.html's module script and the chunks it
    // modulepreloads (Vite lists every static import of the entry there). Its chunk may arrive
    // before a run: the page loads it in idle time so that it is not evaluated mid-run.
    const indexHtml = await (await page.request.get(page.url())).text();
    const firstLoadPaths = [...indexHtml.matchAll(/<(?:script type="module"[^>]*\bsrc|link rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map((match) => new URL(match[1] ?? '', page.url()).pathname);
    expect(firstLoadPaths.length).toBeGreaterThan(0);
    const loaded = await Promise.all(scripts);
    const firstLoad = loaded.filter((script) => firstLoadPaths.includes(new URL(script.url).pathname));
    expect([...new Set(firstLoad.map((script) => new URL(script.url).pathname))].sort()).toEqual([...new Set(firstLoadPaths)].sort());
    expect(firstLoad.filter((script) => script.text.includes(RECHARTS_MARK)).map((script) => script.url)).toEqual([]);

    await playground.run(TASK);
    await playground.waitForFinish(RUN_TIMEOUT_MS);

    const charges = chargesOf(server.requests, scenario);
    // Orchestrator → search-1 writes the query → orchestrator → answer-2 answers.
    expect(charges.map((charge) => charge.model)).toEqual([ORCHESTRATOR, 'scripted/searcher', ORCHESTRATOR, 'scripted/answerer-mini']);
    const priced = charges.map((charge) => {
      const price = PRICES[charge.model];
      if (!price) throw new Error(`no price for ${charge.model}`);
      return costAt(charge, price);
    });
    const [orchestrator1 = 0, searcher = 0, orchestrator2 = 0, answerer = 0] = priced;
    // The local corpus search itself is free.
    const total = orchestrator1 + searcher + orchestrator2 + answerer;
    await expect(playground.totalCost).toHaveText(formatUsd(total));
    await expect(cost.getByText('measured', { exact: true })).toBeVisible();

    // Where it went: per alias, and per step.
    const table = cost.getByRole('table', { name: 'Where it went' });
    await expect(table.getByRole('row', { name: /^orchestrator/ })).toContainText(formatUsd(orchestrator1 + orchestrator2));
    await expect(table.getByRole('row', { name: /^search-1/ })).toContainText(formatUsd(searcher));
    await expect(table.getByRole('row', { name: /^answer-2/ })).toContainText(formatUsd(answerer));
    await expect(table.getByRole('row', { name: /^search / })).toContainText('$0');
    await cost.getByText('Cost per step', { exact: true }).click();
    const stepRows = cost.getByRole('table').nth(1).getByRole('row');
    await expect(stepRows.nth(1)).toContainText(`1${formatUsd(orchestrator1 + searcher)}${formatUsd(orchestrator1 + searcher)}`);
    await expect(stepRows.nth(2)).toContainText(`2${formatUsd(orchestrator2 + answerer)}${formatUsd(total)}`);

    // The counterfactual: the experts' tokens at the costliest configured expert (the answerer),
    // the orchestrator as it was.
    const strongest = PRICES['scripted/answerer'];
    if (!strongest) throw new Error('no price for the answerer');
    const counterfactual = orchestrator1 + orchestrator2 + costAt(charges[1] as Charge, strongest) + costAt(charges[3] as Charge, strongest);
    await expect(cost.getByRole('definition').filter({ hasText: 'this run' })).toContainText(formatUsd(counterfactual));
    await expect(cost).toContainText(`${(counterfactual / total).toFixed(1)}× this run`);

    // Tokens: every call's usage.
    const promptTokens = charges.reduce((sum, charge) => sum + charge.promptTokens, 0);
    const completionTokens = charges.reduce((sum, charge) => sum + charge.completionTokens, 0);
    await expect(cost).toContainText(`${promptTokens.toLocaleString('en-US')} / ${completionTokens.toLocaleString('en-US')}`);

    // The charts, drawn by the page itself: a bar per step, a bar per priced alias or tool
    // (the free corpus search's has no length), and no recharts loaded for them.
    const stepChart = cost.getByRole('figure', { name: /Cost per step/ });
    const [costliest, costliestUsd] = orchestrator1 + searcher > orchestrator2 + answerer ? [1, orchestrator1 + searcher] : [2, orchestrator2 + answerer];
    await expect(stepChart.getByRole('img')).toHaveAccessibleName(
      `2 steps, ${formatUsd(total)} in all; the costliest: step ${costliest}, ${formatUsd(costliestUsd)}. Bars: each step's cost; line: the cumulative cost.`,
    );
    expect(await barsOf(stepChart)).toBe(2);
    const toolChart = cost.getByRole('figure', { name: 'Cost by tool or alias' });
    expect(await toolChart.getByRole('img').getAttribute('aria-label')).toMatch(new RegExp(`^orchestrator: ${escapeRegExp(formatUsd(orchestrator1 + orchestrator2))}; `));
    await expect(toolChart.locator('.tool-chart-bar')).toHaveCount(4);
    const all = await Promise.all(scripts);
    expect(all.filter((script) => script.text.includes(RECHARTS_MARK)).map((script) => script.url)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('a run with Python: the times add up to the wall time with its start-up on a line of its own; ≈ and "steps" read the same everywhere; round chart ticks', async ({
    playground,
    scripted,
  }) => {
    // The code step boots Pyodide in the browser: seconds on a quiet machine, longer on a loaded one.
    test.setTimeout(4 * RUN_TIMEOUT_MS);
    const server = await scripted.start(loadScenario('cli-paper-prompt'));
    const cost = playground.page.getByRole('region', { name: 'Cost and latency' });
    await playground.open();
    // Code is charged by the second, an estimate.
    await playground.importConfig(scriptedConfig(server.url));
    await playground.run(TASK);
    await playground.waitForFinish(3 * RUN_TIMEOUT_MS);

    const table = cost.getByRole('table', { name: /Where it went/ });
    const startup = table.getByRole('row', { name: /^Python start-up/ });
    await expect(startup).toBeVisible();
    // formatMs: "12 ms", "4.2 s", or past a minute (a loaded machine booting Pyodide) "1 min 3 s".
    let roundedToSeconds = 0;
    const seconds = (text: string | null) => {
      const trimmed = (text ?? '').trim();
      const minutes = /^(\d+) min (\d+) s$/.exec(trimmed);
      if (minutes) {
        roundedToSeconds++;
        return Number(minutes[1]) * 60 + Number(minutes[2]);
      }
      const match = /^(\d+(?:\.\d+)?) (ms|s)$/.exec(trimmed);
      if (!match) throw new Error(`not a time: ${text}`);
      return Number(match[1]) / (match[2] === 'ms' ? 1000 : 1);
    };
    const timeOf = async (row: ReturnType<typeof table.getByRole>) => seconds(await row.getByRole('cell').nth(1).textContent());
    expect(await timeOf(startup)).toBeGreaterThan(0);
    // Every line's time, start-up and the time between calls included, adds up to the wall time.
    const body = table.locator('tbody').getByRole('row');
    const lines = await body.count();
    let sum = 0;
    for (let i = 0; i < lines; i++) sum += await timeOf(body.nth(i));
    const wall = await timeOf(table.locator('tfoot').getByRole('row', { name: /^Total/ }));
    // Each line is rounded to a tenth of a second (or a millisecond) on its own, or to a second past a minute.
    expect(Math.abs(sum - wall)).toBeLessThanOrEqual(0.05 * lines + 0.45 * roundedToSeconds + 1e-9);
    const elapsed = cost.locator('.cost-figures div').filter({ hasText: 'Elapsed' }).getByRole('definition');
    expect(seconds(await elapsed.textContent())).toBeCloseTo(wall, 5);

    // Code seconds are estimates: the status line marks its total ≈ as the trace does.
    const total = (await playground.totalCost.textContent()) ?? '';
    expect(total.startsWith('≈$')).toBe(true);
    await expect(playground.runStatus).toContainText(total);
    await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText(total);
    // One word for the orchestrator's turns: steps.
    await expect(playground.runStatus).toContainText('3 steps');
    await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText('3 steps');
    await expect(playground.page.getByText(/\b\d+ turns?\b/)).toHaveCount(0);

    // The chart's dollar axis counts in round, even steps from $0.
    const ticks = cost.getByRole('figure', { name: /Cost per step/ }).locator('.cost-chart-y-tick');
    await expect(ticks.first()).toBeVisible();
    const values = (await ticks.allTextContents()).map((text) => Number(text.replace(/^\$/, '')));
    expect(values[0]).toBe(0);
    const step = (values[1] ?? 0) - (values[0] ?? 0);
    const mantissa = step / 10 ** Math.floor(Math.log10(step));
    expect([1, 2, 2.5, 5].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
    values.forEach((value, i) => expect(value).toBeCloseTo(i * step, 9));
  });

  test('a model with no known price reads "unknown", never $0', async ({ playground, scripted }) => {
    const scenario = loadScenario('cli-paper-server');
    const server = await scripted.start(scenario);
    const { 'scripted/answerer-mini': _unpriced, ...prices } = PRICES;
    const cost = playground.page.getByRole('region', { name: 'Cost and latency' });

    await playground.open();
    await playground.importConfig(configFor(server, prices));
    await playground.run(TASK);
    await playground.waitForFinish(RUN_TIMEOUT_MS);

    const [orchestrator1, searcher, orchestrator2] = chargesOf(server.requests, scenario);
    const known = [orchestrator1, searcher, orchestrator2].reduce((sum, charge) => {
      const price = charge && PRICES[charge.model];
      if (!charge || !price) throw new Error('a charge is missing');
      return sum + costAt(charge, price);
    }, 0);
    await expect(playground.totalCost).toHaveText(`${formatUsd(known)} + unknown`);
    await expect(cost).toContainText('1 call has no known price: not counted in the total.');
    const table = cost.getByRole('table', { name: 'Where it went' });
    await expect(table.getByRole('row', { name: /^answer-2/ }).getByRole('cell').last()).toHaveText('unknown');
  });

  test('the Evaluate tab\'s charts are drawn once off screen while the page is idle, hidden and inert, then removed; the cost charts need no warm-up', async ({ page, playground, consoleErrors }) => {
    // Every chart the warm-up draws (docs/benchmarks.md: recharts' first mount is a long task
    // unless it is warmed up in steps), and whether it left the page.
    await page.addInitScript(() => {
      const seen = { charts: new Set<Element>(), hidden: true, inLandmark: false };
      Object.defineProperty(window, '__warmUp', { value: seen });
      new MutationObserver(() => {
        for (const box of document.querySelectorAll('.chart-warmup')) {
          if (box.getAttribute('aria-hidden') !== 'true' || !box.hasAttribute('inert') || getComputedStyle(box).visibility !== 'hidden') seen.hidden = false;
          if (box.closest('main, section, [role="region"], [role="tabpanel"]')) seen.inLandmark = true;
          // A chart's own surface (a legend's icons are surfaces too).
          for (const chart of box.querySelectorAll('.recharts-wrapper > svg.recharts-surface')) seen.charts.add(chart);
        }
      }).observe(document, { childList: true, subtree: true });
    });
    // The cost charts' module loads when the page is first idle; it draws nothing off screen.
    const costCharts = page.waitForResponse((response) => /\/CostCharts-[^/]*\.js$/.test(new URL(response.url()).pathname));
    await playground.open();
    await costCharts;
    const warmUp = () =>
      page.evaluate(() => {
        const seen = (window as unknown as { __warmUp: { charts: Set<Element>; hidden: boolean; inLandmark: boolean } }).__warmUp;
        return { charts: seen.charts.size, hidden: seen.hidden, inLandmark: seen.inLandmark, present: document.querySelector('.chart-warmup') !== null };
      });
    expect(await warmUp()).toEqual({ charts: 0, hidden: true, inLandmark: false, present: false });
    // The Evaluate tab's, when it opens: recharts' core (a scatter chart, then a bar chart), then its two charts.
    await playground.openTab('Evaluate');
    await expect.poll(warmUp, { timeout: 60_000 }).toEqual({ charts: 4, hidden: true, inLandmark: false, present: false });
    expect(consoleErrors).toEqual([]);
  });

  test('chart colours come from the theme', async ({ page, playground, scripted }) => {
    const server = await scripted.start(loadScenario('cli-paper-server'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await playground.open();
    await playground.importConfig(configFor(server, PRICES));
    await playground.run(TASK);
    await playground.waitForFinish(RUN_TIMEOUT_MS);

    const bar = page.getByRole('figure', { name: /Cost per step/ }).locator('path.step-chart-bars');
    const fillOf = () => bar.evaluate((element) => getComputedStyle(element).fill);
    const seriesOne = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--series-1').trim());
    // --series-1 is #7b93f5 in the dark theme and #3b5bdb in the light one (app/app.css).
    expect(await seriesOne()).toBe('#7b93f5');
    await expect.poll(fillOf).toBe('rgb(123, 147, 245)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await seriesOne()).toBe('#3b5bdb');
    await expect.poll(fillOf).toBe('rgb(59, 91, 219)');
  });
});

test.describe('preferences', () => {
  test('presets and sliders change the instruction, and the next run sends it', async ({ playground, scripted, consoleErrors }) => {
    test.setTimeout(3 * RUN_TIMEOUT_MS);
    const server = await scripted.start(loadScenario('cli-paper-server'));
    const preferences = playground.preferences;
    const instruction = preferences.getByRole('figure', { name: 'Instruction added to the task' }).getByRole('blockquote');

    await playground.open();
    await playground.importConfig(configFor(server, PRICES));
    // The imported config says "balanced".
    await expect(preferences.getByRole('radio', { name: 'Balanced' })).toBeChecked();
    await expect(instruction).toHaveText('User preference: Weigh correctness 50%, low cost 25%, low latency 25%.');
    await expect(preferences.getByRole('slider', { name: 'Low cost' })).toHaveAttribute('aria-valuetext', '0.25, 25% of the weight');

    await preferences.getByRole('radio', { name: 'Cheapest' }).check();
    await expect(instruction).toHaveText('User preference: Weigh correctness 30%, low cost 60%, low latency 10%.');
    await expect(preferences.getByRole('slider', { name: 'Low cost' })).toHaveAttribute('aria-valuetext', '0.6, 60% of the weight');

    // Prefer search-1 fully, by keyboard; one step down on "Correct answer".
    const searchExpert = preferences.getByRole('slider', { name: 'search-1', exact: true });
    await searchExpert.focus();
    await searchExpert.press('End');
    await expect(searchExpert).toHaveAttribute('aria-valuetext', 'strongly prefer, +1');
    const outcome = preferences.getByRole('slider', { name: 'Correct answer' });
    await outcome.focus();
    await outcome.press('ArrowLeft');
    await expect(preferences.getByRole('radio', { name: 'Cheapest' })).not.toBeChecked();
    const expected = preferenceInstruction({ ...PREFERENCE_PRESETS.cheapest, outcome: 0.25, tools: { 'search-1': 1 } });
    expect(expected).toBe('User preference: Weigh correctness 26%, low cost 63%, low latency 11%. Prefer search-1.');
    await expect(instruction).toHaveText(expected ?? '');
    // One scheme: the sliders show the instruction's own percentages (the three aims' split among
    // themselves), and a tool weight is a preference in words, not a share.
    const percents = { 'Correct answer': '0.25, 26%', 'Low cost': '0.6, 63%', 'Low latency': '0.1, 11%' };
    for (const [name, text] of Object.entries(percents)) {
      await expect(preferences.getByRole('slider', { name })).toHaveAttribute('aria-valuetext', `${text} of the weight`);
    }
    await expect(preferences.getByRole('img', { name: /^Shares of the weight/ })).toHaveAttribute(
      'aria-label',
      'Shares of the weight: Correct answer 26%, Low cost 63%, Low latency 11%',
    );
    await expect(searchExpert).toHaveAttribute('aria-valuetext', 'strongly prefer, +1');
    await expect(preferences).toContainText('the same split the instruction gives the orchestrator');
    await expect(preferences).toContainText('Applies to the next run.');

    await playground.run(TASK);
    await playground.waitForFinish(RUN_TIMEOUT_MS);
    const sent = orchestratorPrompts(server);
    expect(sent.length).toBeGreaterThan(0);
    for (const prompt of sent) expect(prompt).toContain(expected);

    // Switched off, the next run sends no instruction at all.
    server.reset();
    await preferences.getByRole('switch', { name: 'Add the instruction to the task' }).uncheck();
    await expect(preferences).toContainText('Left out');
    await playground.run(TASK);
    await playground.waitForFinish(RUN_TIMEOUT_MS);
    const unsent = orchestratorPrompts(server);
    expect(unsent.length).toBeGreaterThan(0);
    for (const prompt of unsent) expect(prompt).not.toContain('User preference:');
    expect(consoleErrors).toEqual([]);
  });

  test('preferences are kept across a reload, and a kept vector out of bounds is dropped', async ({ playground, page }) => {
    // The kept preferences are read back when the config's checks load, after the first paint.
    const preferences = playground.preferences;
    await playground.open();
    await preferences.getByRole('radio', { name: 'Fastest' }).check();
    const latency = preferences.getByRole('slider', { name: 'Low latency' });
    await latency.focus();
    await latency.press('ArrowRight');
    const kept = await latency.getAttribute('aria-valuetext');
    await page.reload();
    await expect(preferences.getByRole('slider', { name: 'Low latency' })).toHaveAttribute('aria-valuetext', kept ?? '');
    await expect(preferences.getByRole('radio', { name: 'Fastest' })).not.toBeChecked();

    await page.evaluate(() => {
      const key = 'orchestra-playground:preferences';
      const saved = JSON.parse(localStorage.getItem(key) ?? '{}') as { state: { vector: { cost: number } } };
      saved.state.vector.cost = 7;
      localStorage.setItem(key, JSON.stringify(saved));
    });
    await page.reload();
    await expect(preferences.getByRole('radio', { name: 'Balanced' })).toBeChecked();
    await expect(preferences.getByRole('slider', { name: 'Low cost' })).toHaveAttribute('aria-valuetext', '0.25, 25% of the weight');
  });

  test('one slider per tool and alias of the current config, each named by what it weighs', async ({ playground, scripted }) => {
    const server = await scripted.start(loadScenario('cli-paper-server'));
    await playground.open();
    await playground.importConfig(configFor(server, PRICES));
    const sliders = playground.preferences.getByRole('slider');
    // Reading a file is asynchronous (its reader loads with it): wait for the import to land.
    await expect(sliders).toHaveCount(10);
    const names = await sliders.evaluateAll((elements) => elements.map((element) => (element as HTMLInputElement).labels?.[0]?.textContent));
    expect(names).toEqual([
      'Correct answer',
      'Low cost',
      'Low latency',
      'search',
      'search-1',
      'enhance_reasoning',
      'reasoner-1',
      'answer',
      'answer-1',
      'answer-2',
    ]);
    for (const name of ['Cheapest', 'Balanced', 'Best answer', 'Fastest']) {
      await expect(playground.preferences.getByRole('radio', { name })).toBeVisible();
    }
  });
});
