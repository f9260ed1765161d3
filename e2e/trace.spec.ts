// The trace in real Chromium against the scripted OpenAI-compatible server: steps streaming in,
// what each step found and cost, the tool menu, "What the model saw" against what the server
// actually received, keyboard use, deep links, a virtualised long trace, and untrusted output.

import type { Locator } from '@playwright/test';
import { formatUsd } from '../workers/engine/format.ts';
import type { Scenario, ScriptedResponse } from '../cli/scripted/scenario.ts';
import { costOf, everyTurn, expect, loadScenario, scriptedConfig, test, type Playground, type Prices } from './support/playground.ts';

const TASK = 'What is the population of the capital of Finland?';
const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';

function stepCard(playground: Playground, step: number): Locator {
  return playground.trace.getByRole('article', { name: new RegExp(`^Step ${step} `) });
}

function toggleOf(card: Locator): Locator {
  return card.getByRole('heading').getByRole('button');
}

/** The three-step paper scenario (search, code, answer) with its first turn streamed slowly. */
function slowPaperScenario(): Scenario {
  const scenario = loadScenario('cli-paper-prompt');
  const turns = scenario.models[ORCHESTRATOR] ?? [];
  // The scenario lists the last turn first; the search turn (matched by no `when`) is the last.
  const searchTurn = turns[turns.length - 1];
  if (searchTurn) Object.assign(searchTurn, { chunkSize: 3, chunkDelayMs: 80 });
  return scenario;
}

/** The paper config against `url`, with code seconds free so every cost is exact. */
function paperConfig(url: string, overrides: Record<string, unknown> = {}) {
  const base = scriptedConfig(url, overrides);
  const pricing = base.pricing as { models: Prices };
  return { config: { ...base, pricing: { ...pricing, codePerSecond: 0 } }, prices: pricing.models };
}

const orchestratorTurn = (thought: string, tool: string, alias: string, promptTokens: number): ScriptedResponse => ({
  content: `<think>${thought}</think>\n<tool_call>\n{"name": "${tool}", "arguments": {"model": "${alias}"}}\n</tool_call>`,
  usage: { prompt_tokens: promptTokens, completion_tokens: 30 },
});

/** Three turns without code: search, search again, answer. */
function searchTwiceScenario(): Scenario {
  return {
    models: {
      [ORCHESTRATOR]: [
        orchestratorTurn('Find the capital first.', 'search', 'search-1', 1200),
        orchestratorTurn('Now its population.', 'search', 'search-1', 1900),
        orchestratorTurn('Doc 1 has it.', 'answer', 'answer-2', 2400),
      ],
      'scripted/searcher': [{ repeat: true, content: '<query>capital of Finland population</query>', usage: { prompt_tokens: 600, completion_tokens: 10 } }],
      'scripted/answerer-mini': [{ repeat: true, content: '<answer>558,457</answer>', usage: { prompt_tokens: 2000, completion_tokens: 8 } }],
    },
  };
}

interface RecordedChat {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

/** `turns` search turns, each streaming its reasoning for a second or so, then a search. */
function streamingSearchScenario(turns: number): Scenario {
  const turn = (n: number): ScriptedResponse => ({
    content: `<think>Turn ${n}. ${'Weighing what to look up next. '.repeat(18)}</think>\n<tool_call>\n{"name": "search", "arguments": {"model": "search-1"}}\n</tool_call>`,
    chunkSize: 12,
    chunkDelayMs: 25,
    usage: { prompt_tokens: 400, completion_tokens: 60 },
  });
  return {
    models: {
      [ORCHESTRATOR]: Array.from({ length: turns }, (_, i) => turn(i + 1)),
      'scripted/searcher': [{ repeat: true, content: '<query>capital of Finland population</query>', usage: { prompt_tokens: 100, completion_tokens: 8 } }],
    },
  };
}

/** The orchestrator searches at every turn, at once, until the run's turn limit stops it. */
function searchingForever(): Scenario {
  return everyTurn(
    { content: '<think>Search again.</think>\n<tool_call>\n{"name": "search", "arguments": {"model": "search-1"}}\n</tool_call>', usage: { prompt_tokens: 500, completion_tokens: 20 } },
    { model: 'scripted/searcher', content: '<query>capital of Finland</query>', usage: { prompt_tokens: 100, completion_tokens: 8 } },
  );
}

/** The playground at 1440 × 900 (where `npm start` lost the tail), set up for a streaming run. */
async function openStreamingRun(playground: Playground, scripted: { start(scenario: Scenario): Promise<{ url: string }> }, turns: number) {
  await playground.page.setViewportSize({ width: 1440, height: 900 });
  const server = await scripted.start(streamingSearchScenario(turns));
  await playground.open();
  await playground.importConfig(paperConfig(server.url, { limits: { maxTurns: turns } }).config);
}

test.describe('the trace', () => {
  // Each test drives a whole run through the page, worker and server; a shared CI machine is slow.
  test.describe.configure({ timeout: 60_000 });

  test('streams a paper run step by step: reasoning, tool menu, documents, code, answer, tokens and costs', async ({
    playground,
    scripted,
    consoleErrors,
  }) => {
    // The code step starts Python (Pyodide) in the browser, which takes a while the first time.
    test.slow();
    const scenario = slowPaperScenario();
    const server = await scripted.start(scenario);
    const { config, prices } = paperConfig(server.url);
    await playground.open();
    await playground.importConfig(config);
    await playground.run(TASK);

    // Step 1 streams its reasoning while the run is still going, the reasoning open meanwhile.
    const first = stepCard(playground, 1);
    await expect(first).toContainText('I need the capital of Finland');
    await expect(first.getByRole('button', { name: /^Reasoning/ })).toHaveAttribute('aria-expanded', 'true');
    await expect(playground.stopButton).toBeEnabled();
    await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toHaveCount(0);

    await playground.waitForFinish(120_000);
    await expect(playground.steps()).toHaveCount(3);

    // Once the turn is over its reasoning folds away, and opens on request.
    const reasoning = first.getByRole('button', { name: /^Reasoning/ });
    await expect(reasoning).toHaveAttribute('aria-expanded', 'false');
    await reasoning.click();
    await expect(first.locator('.reasoning-text')).toHaveText('I need the capital of Finland and its population first.');

    // The menu the orchestrator chose from, with its choice highlighted.
    const menu = first.getByRole('list', { name: 'Tool menu' });
    // In the order the orchestrator read them (the paper's tool order).
    await expect(menu.getByRole('listitem')).toHaveText([
      'enhance_reasoning reasoner-1',
      'answer answer-1',
      'answer answer-2',
      'search search-1 (chosen)',
    ]);
    await expect(menu.locator('[aria-current="true"]')).toHaveCount(1);
    await expect(menu.locator('[aria-current="true"]')).toContainText('search-1');
    await expect(stepCard(playground, 2).getByRole('list', { name: 'Tool menu' }).locator('[aria-current="true"]')).toContainText(
      'reasoner-1',
    );

    // What each step found: documents, code and its output, the expert's answer.
    await expect(first.getByRole('group', { name: 'Call search → search-1' })).toContainText('scripted/searcher');
    await expect(first.locator('.search-query')).toHaveText('capital of Finland population');
    const documents = first.getByRole('list', { name: 'Documents' }).getByRole('listitem');
    expect(await documents.count()).toBeGreaterThan(0);
    await expect(documents.filter({ hasText: 'Helsinki' }).first()).toBeVisible();
    const second = stepCard(playground, 2);
    await expect(second.locator('pre.code')).toHaveText(
      'population = 558457\nprint(f"Helsinki population in thousands: {population / 1000:.1f}")',
    );
    await expect(second.locator('pre.code-output')).toHaveText('Helsinki population in thousands: 558.5\n');
    await expect(stepCard(playground, 3).locator('.expert-answer')).toHaveText('558,457');

    // Tokens, step cost and running total from the scenario's usage at the config's prices.
    const [answerTurn, codeTurn, searchTurn] = scenario.models[ORCHESTRATOR] ?? [];
    const stepCosts = [
      costOf(ORCHESTRATOR, searchTurn, prices) + costOf('scripted/searcher', scenario.models['scripted/searcher']?.[0], prices),
      costOf(ORCHESTRATOR, codeTurn, prices) + costOf('scripted/coder', scenario.models['scripted/coder']?.[0], prices),
      costOf(ORCHESTRATOR, answerTurn, prices) + costOf('scripted/answerer', scenario.models['scripted/answerer']?.[0], prices),
    ];
    await expect(first.locator('.metric', { hasText: 'Tokens' }).locator('dd')).toHaveText('1,850 in · 47 out');
    let cumulative = 0;
    for (const [index, cost] of stepCosts.entries()) {
      cumulative += cost;
      const card = stepCard(playground, index + 1);
      await expect(card.locator('.metric', { hasText: 'Step cost' }).locator('dd')).toHaveText(new RegExp(`^≈?\\${formatUsd(cost)}$`));
      await expect(card.locator('.metric', { hasText: 'Total' }).locator('dd')).toHaveText(new RegExp(`^≈?\\${formatUsd(cumulative)}$`));
      await expect(card.locator('.metric', { hasText: 'Latency' }).locator('dd')).toHaveText(/^\d+(\.\d)? m?s$/);
    }
    // Step 1 involved no code run, so its figures are all measured.
    await expect(first.locator('.metric', { hasText: 'Step cost' }).locator('dd')).toHaveText(formatUsd(stepCosts[0] ?? 0));

    // The final answer stands out at the end.
    const final = playground.trace.getByRole('region', { name: 'Final answer' });
    await expect(final).toContainText('Final answer');
    await expect(final.locator('.final-text')).toHaveText('558,457');
    await expect(final).toContainText('3 steps');
    expect(consoleErrors).toEqual([]);
  });

  test('"What the model saw" shows exactly the prompt the server received, and the raw output', async ({
    playground,
    scripted,
    context,
  }) => {
    const scenario = searchTwiceScenario();
    const server = await scripted.start(scenario);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await playground.open();
    await playground.importConfig(paperConfig(server.url).config);
    await playground.run(TASK);
    await playground.waitForFinish();

    const chats = server.requests
      .filter((request) => request.method === 'POST' && request.path === '/v1/chat/completions')
      .map((request) => request.body as RecordedChat)
      .filter((body) => body.model === ORCHESTRATOR);
    expect(chats).toHaveLength(3);
    const received = chats[1]?.messages ?? [];
    expect(received.length).toBeGreaterThan(1);

    const opener = stepCard(playground, 2).getByRole('button', { name: 'What the model saw' });
    await opener.click();
    const dialog = playground.page.getByRole('dialog', { name: 'What the model saw · step 2' });
    await expect(dialog).toBeVisible();

    // The rendered prompt is the Qwen3 template over exactly the messages the server got.
    const prompt = (await dialog.getByRole('tabpanel', { name: 'Rendered prompt' }).locator('pre').textContent()) ?? '';
    expect(prompt.startsWith('<|im_start|>system\n')).toBe(true);
    for (const message of received) expect(prompt).toContain(`<|im_start|>${message.role}\n${message.content}<|im_end|>`);
    expect(prompt).toContain('Documents:');
    await dialog.getByRole('button', { name: 'Copy prompt' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Copied');
    expect(await playground.page.evaluate(() => navigator.clipboard.readText())).toBe(prompt);

    await dialog.getByRole('tab', { name: 'Messages sent' }).click();
    const shown = dialog.getByRole('list', { name: 'Messages' }).getByRole('listitem');
    await expect(shown).toHaveCount(received.length);
    for (const [index, message] of received.entries()) {
      await expect(shown.nth(index).locator('.message-role')).toHaveText(message.role);
      expect(await shown.nth(index).locator('pre').textContent()).toBe(message.content);
    }

    // Arrow keys move between tabs; the raw output is the scripted reply, byte for byte.
    await dialog.getByRole('tab', { name: 'Messages sent' }).press('ArrowRight');
    await expect(dialog.getByRole('tab', { name: 'Raw output' })).toBeFocused();
    const secondTurn = scenario.models[ORCHESTRATOR]?.[1]?.content;
    expect(await dialog.getByRole('tabpanel', { name: 'Raw output' }).locator('pre').textContent()).toBe(secondTurn);

    await playground.page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    // Esc in the dialog closed only the dialog, not the step.
    await expect(toggleOf(stepCard(playground, 2))).toHaveAttribute('aria-expanded', 'true');
  });

  test('keyboard: j/k move between steps, Enter opens and closes, Esc closes; expand/collapse all; deep links', async ({
    playground,
    scripted,
  }) => {
    const server = await scripted.start(searchTwiceScenario());
    await playground.open();
    await playground.importConfig(paperConfig(server.url).config);
    await playground.run(TASK);
    await playground.waitForFinish();
    const page = playground.page;
    const [first, second, third] = [1, 2, 3].map((n) => stepCard(playground, n)) as [Locator, Locator, Locator];

    // Typing j into the task box types a j.
    await playground.task.fill('');
    await playground.task.press('j');
    await expect(playground.task).toHaveValue('j');
    await expect(first).not.toBeFocused();

    // With nothing focused, j starts at the first step.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('j');
    await expect(first).toBeFocused();
    await page.keyboard.press('j');
    await expect(second).toBeFocused();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(third).toBeFocused();
    await page.keyboard.press('k');
    await expect(second).toBeFocused();

    // Enter on a step closes and opens it.
    await page.keyboard.press('Enter');
    await expect(toggleOf(second)).toHaveAttribute('aria-expanded', 'false');
    await expect(second.getByRole('list', { name: 'Documents' })).toBeHidden();
    await page.keyboard.press('Enter');
    await expect(toggleOf(second)).toHaveAttribute('aria-expanded', 'true');
    await expect(second.getByRole('list', { name: 'Documents' })).toBeVisible();

    // Esc from inside a step closes it and gives the step the focus.
    await second.getByRole('button', { name: 'What the model saw' }).focus();
    await page.keyboard.press('Escape');
    await expect(toggleOf(second)).toHaveAttribute('aria-expanded', 'false');
    await expect(second).toBeFocused();
    // Only the focused step takes Tab.
    await expect(second).toHaveAttribute('tabindex', '0');
    await expect(first).toHaveAttribute('tabindex', '-1');

    await playground.trace.getByRole('button', { name: 'Collapse all' }).click();
    for (const card of [first, second, third]) await expect(toggleOf(card)).toHaveAttribute('aria-expanded', 'false');
    await expect(playground.trace.getByRole('list', { name: 'Tool menu' })).toHaveCount(0);
    await playground.trace.getByRole('button', { name: 'Expand all' }).click();
    for (const card of [first, second, third]) await expect(toggleOf(card)).toHaveAttribute('aria-expanded', 'true');
    await expect(playground.trace.getByRole('list', { name: 'Tool menu' })).toHaveCount(3);

    // A deep link opens its step and focuses it; so does the step's own link.
    await playground.trace.getByRole('button', { name: 'Collapse all' }).click();
    await page.evaluate(() => {
      window.location.hash = '#step-3';
    });
    await expect(third).toBeFocused();
    await expect(toggleOf(third)).toHaveAttribute('aria-expanded', 'true');
    await expect(toggleOf(first)).toHaveAttribute('aria-expanded', 'false');
    await first.hover();
    await first.getByRole('link', { name: 'Link to step 1' }).click();
    await expect(page).toHaveURL(/#step-1$/);
    await expect(first).toBeFocused();
    await expect(toggleOf(first)).toHaveAttribute('aria-expanded', 'true');
  });

  test('"Expand all" opens everything: steps, reasoning and expert replies; "Collapse all" closes them', async ({
    playground,
    scripted,
  }) => {
    const scenario = searchTwiceScenario();
    // The searcher thinks aloud, so each search call has an expert reply to open.
    const searcher = scenario.models['scripted/searcher']?.[0];
    if (searcher) searcher.content = '<think>Look it up.</think><query>capital of Finland population</query>';
    const server = await scripted.start(scenario);
    await playground.open();
    await playground.importConfig(paperConfig(server.url).config);
    await playground.run(TASK);
    await playground.waitForFinish();

    const reasoning = playground.trace.getByRole('button', { name: /^Reasoning/ });
    const replies = playground.trace.getByRole('button', { name: /reasoning and reply/ });
    await expect(reasoning).toHaveCount(3);
    // search-1 twice and answer-2 once.
    await expect(replies).toHaveCount(3);
    // Once a run is over, reasoning and replies are folded away.
    for (const toggle of [...(await reasoning.all()), ...(await replies.all())]) await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await playground.trace.getByRole('button', { name: 'Expand all' }).click();
    for (const toggle of [...(await reasoning.all()), ...(await replies.all())]) await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(stepCard(playground, 2).getByRole('group', { name: 'Call search → search-1' })).toContainText('Look it up.');

    // Collapsing a step and opening it again keeps its blocks as "Expand all" left them.
    await toggleOf(stepCard(playground, 1)).click();
    await toggleOf(stepCard(playground, 1)).click();
    await expect(stepCard(playground, 1).getByRole('button', { name: /^Reasoning/ })).toHaveAttribute('aria-expanded', 'true');

    await playground.trace.getByRole('button', { name: 'Collapse all' }).click();
    await playground.trace.getByRole('button', { name: 'Expand all' }).click();
    await playground.trace.getByRole('button', { name: 'Collapse all' }).click();
    await toggleOf(stepCard(playground, 2)).click();
    await expect(stepCard(playground, 2).getByRole('button', { name: /^Reasoning/ })).toHaveAttribute('aria-expanded', 'false');
  });

  test('follows the live run to its end, also when the trace grows between its scroll and that scroll\'s event', async ({
    playground,
    scripted,
  }) => {
    // Under `npm start`, React's development build renders slowly enough that a new step often
    // lands between the trace scrolling itself to the end and the browser reporting that scroll
    // (a frame later); the trace took its own scroll for the person's and stopped following.
    // This makes that happen on purpose, in the production build: after each resize the trace
    // reacts to, the trace grows again before the next frame.
    const page = playground.page;
    await openStreamingRun(playground, scripted, 6);
    await page.evaluate(() => {
      let grown = 0;
      const attach = (scroller: Element) => {
        const content = scroller.firstElementChild;
        if (!content) return;
        new ResizeObserver(() => {
          if (grown >= 20 || scroller.scrollHeight <= scroller.clientHeight) return;
          setTimeout(() => {
            grown += 1;
            const spacer = document.createElement('div');
            spacer.style.height = '120px';
            content.append(spacer);
          });
        }).observe(content);
      };
      new MutationObserver((_, observer) => {
        const scroller = document.querySelector('.trace-scroller');
        if (!scroller) return;
        observer.disconnect();
        attach(scroller);
      }).observe(document.body, { childList: true, subtree: true });
    });
    await playground.run(TASK);

    await expect(stepCard(playground, 4)).toBeVisible({ timeout: 30_000 });
    await expect.poll(() => playground.traceScroll().then((scroll) => scroll.fromEnd)).toBeLessThanOrEqual(48);
    await playground.waitForFinish();
    await expect.poll(() => playground.traceScroll().then((scroll) => scroll.fromEnd)).toBeLessThanOrEqual(48);
  });

  test('stops following where the person scrolled up, and follows again once they are back at the end', async ({
    playground,
    scripted,
  }) => {
    const page = playground.page;
    await openStreamingRun(playground, scripted, 7);
    await playground.run(TASK);

    await expect(stepCard(playground, 3)).toBeVisible({ timeout: 30_000 });
    const scroller = playground.trace.locator('.trace-scroller');
    await scroller.hover();
    await page.mouse.wheel(0, -400);
    await expect.poll(() => playground.traceScroll().then((scroll) => scroll.fromEnd)).toBeGreaterThan(300);
    const { top } = await playground.traceScroll();
    await expect(stepCard(playground, 5)).toBeAttached({ timeout: 30_000 });
    // New steps arrived; the view stayed where the person put it.
    expect((await playground.traceScroll()).top).toBe(top);

    await page.mouse.wheel(0, 100_000);
    await playground.waitForFinish();
    await expect.poll(() => playground.traceScroll().then((scroll) => scroll.fromEnd)).toBeLessThanOrEqual(48);
  });

  test('a rate-limit wait counts down on the step, then the run goes on', async ({ playground, scripted }) => {
    const scenario = searchTwiceScenario();
    const firstTurn = scenario.models[ORCHESTRATOR]?.[0];
    if (firstTurn) firstTurn.fault = { kind: 'status', status: 429, retryAfterSeconds: 5 };
    const server = await scripted.start(scenario);
    await playground.open();
    await playground.importConfig(paperConfig(server.url).config);
    await playground.run(TASK);

    const first = stepCard(playground, 1);
    const timer = first.getByRole('timer');
    await expect(timer).toHaveText(/^Retrying in [2-5] s$/);
    const startedAt = Number(/\d+/.exec((await timer.textContent()) ?? '')?.[0]);
    await expect(first).toContainText('Attempt 1 failed: rate limited (HTTP 429).');
    // It counts down: some lower whole second shows before the wait ends (which one depends on
    // when a loaded machine gets to paint, so any lower one will do).
    const lower = Array.from({ length: Math.max(startedAt - 1, 1) }, (_, i) => i + 1).join('');
    await expect(timer).toHaveText(new RegExp(`^Retrying in [${lower}] s$`), { timeout: 6000 });
    await playground.waitForFinish();
    await expect(first).toContainText('Retried after 5.0 s.');
    await expect(first.getByRole('timer')).toHaveCount(0);
    await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText('558,457');
  });

  test('a live run that grows past the virtualising threshold keeps the list and the cards in view', async ({
    playground,
    scripted,
  }) => {
    // Crossing VIRTUALISE_FROM used to swap one list component for another: every card was
    // unmounted and rebuilt in one frame, the longest main-thread task of a long streamed run.
    // Then, in one list, the frame that switched still turned the rows into absolutely placed ones
    // and removed the cards off screen at once. Now the rows stay in flow, where they were, and
    // the cards off screen go over the next frames.
    test.slow();
    const steps = 40;
    const server = await scripted.start(searchingForever());
    await playground.page.setViewportSize({ width: 1440, height: 900 });
    await playground.open();
    await playground.importConfig(paperConfig(server.url, { limits: { maxTurns: steps } }).config);
    await playground.page.evaluate(() => {
      interface Seen {
        list: Element | null;
        lastPlainRow: Element | null;
        plainRows: number;
        plainTop: number;
        atSwitch: { rowKept: boolean; rows: number; moved: number } | null;
      }
      const seen: Seen = { list: null, lastPlainRow: null, plainRows: 0, plainTop: 0, atSwitch: null };
      (window as unknown as { __traceSwitch: Seen }).__traceSwitch = seen;
      // The last plain row's place in the list, read after each of the list's changes.
      const topInList = (list: Element, row: Element | null) =>
        row ? row.getBoundingClientRect().top - list.getBoundingClientRect().top : 0;
      new MutationObserver(() => {
        const list = document.querySelector('ol.steps');
        if (!list) return;
        seen.list ??= list;
        if (!list.classList.contains('virtual')) {
          seen.lastPlainRow = list.lastElementChild;
          seen.plainRows = list.children.length;
          seen.plainTop = topInList(list, seen.lastPlainRow);
        } else if (seen.atSwitch === null) {
          seen.atSwitch = {
            rowKept: seen.lastPlainRow?.isConnected ?? false,
            rows: list.children.length - seen.plainRows,
            moved: Math.abs(topInList(list, seen.lastPlainRow) - seen.plainTop),
          };
        }
      }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
    });
    await playground.run(TASK);
    await playground.waitForFinish(120_000);
    await expect(playground.trace).toContainText(`${steps} steps`);

    const switched = await playground.page.evaluate(() => {
      const seen = (
        window as unknown as {
          __traceSwitch: { list: Element | null; atSwitch: { rowKept: boolean; rows: number; moved: number } | null };
        }
      ).__traceSwitch;
      const list = document.querySelector('ol.steps');
      return { sameList: seen.list === list, virtual: list?.classList.contains('virtual') ?? false, atSwitch: seen.atSwitch };
    });
    expect(switched).toMatchObject({ sameList: true, virtual: true, atSwitch: { rowKept: true } });
    // No row left the page in the frame that switched (a new step may have come in)…
    expect(switched.atSwitch?.rows).toBeGreaterThanOrEqual(0);
    // …and none moved: the rows kept their place in the list.
    expect(switched.atSwitch?.moved).toBeLessThan(1);
    // The cards off screen went afterwards: only those in view (and a few beyond) are left.
    expect(await playground.steps().count()).toBeLessThan(20);
  });

  test('a long trace is virtualised and still reachable by deep link and j/k', async ({ playground, scripted }) => {
    test.slow();
    const steps = 60;
    const server = await scripted.start(searchingForever());
    await playground.open();
    await playground.importConfig(paperConfig(server.url, { limits: { maxTurns: steps } }).config);
    await playground.run(TASK);
    await playground.waitForFinish(120_000);

    await expect(playground.trace).toContainText(`${steps} steps`);
    await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText('reached the maximum number of steps');
    // Only the cards in view (and a few beyond) are in the page.
    const rendered = await playground.steps().count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(20);
    await expect(playground.trace.locator('li[aria-setsize]').first()).toHaveAttribute('aria-setsize', String(steps));

    const page = playground.page;
    await page.evaluate(() => {
      window.location.hash = '#step-45';
    });
    await expect(stepCard(playground, 45)).toBeFocused();
    await expect(stepCard(playground, 45)).toBeInViewport();
    await page.keyboard.press('j');
    await expect(stepCard(playground, 46)).toBeFocused();
    for (let i = 0; i < 6; i++) await page.keyboard.press('k');
    await expect(stepCard(playground, 40)).toBeFocused();
    await expect(stepCard(playground, 40)).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(toggleOf(stepCard(playground, 40))).toHaveAttribute('aria-expanded', 'false');

    // From the last step back to the first, rows are created as they come into view.
    await page.evaluate(() => {
      window.location.hash = '#step-60';
    });
    await expect(stepCard(playground, 60)).toBeFocused();
    await page.evaluate(() => {
      window.location.hash = '#step-1';
    });
    await expect(stepCard(playground, 1)).toBeFocused();
    await expect(stepCard(playground, 60)).toHaveCount(0);
  });

  test('model output with HTML and script is shown as text and never runs', async ({ playground, scripted }) => {
    const html = '<img src=x onerror="window.__traceInjected=1"><script>window.__traceInjected=2</script>';
    const scenario: Scenario = {
      models: {
        [ORCHESTRATOR]: [
          // A call that cannot be read is rejected, with its reason, and the turn shows as text.
          { content: `<think>${html}</think>\n<tool_call>\n{"name": "search", ${html}}\n</tool_call>` },
          { content: `<think>Now search. ${html}</think>\n<tool_call>\n{"name": "search", "arguments": {"model": "search-1"}}\n</tool_call>` },
          { content: '<tool_call>\n{"name": "answer", "arguments": {"model": "answer-1"}}\n</tool_call>' },
        ],
        'scripted/searcher': [{ content: `<query>Helsinki ${html}</query>` }],
        'scripted/answerer': [{ content: `<think>${html}</think><answer>${html} Helsinki</answer>` }],
      },
    };
    const server = await scripted.start(scenario);
    await playground.open();
    await playground.importConfig(paperConfig(server.url).config);
    await playground.run(TASK);
    await playground.waitForFinish();

    const first = stepCard(playground, 1);
    await expect(first.locator('.rejected')).toContainText('Rejected call');
    await expect(first.locator('.rejected pre')).toContainText(html);
    await expect(first.getByRole('note').filter({ hasText: 'The orchestrator emitted no valid tool call' })).toBeVisible();
    await first.getByRole('button', { name: /^Reasoning/ }).click();
    await expect(first.locator('.reasoning-text')).toHaveText(html);
    await expect(stepCard(playground, 2).locator('.search-query')).toHaveText(`Helsinki ${html}`);
    const final = playground.trace.getByRole('region', { name: 'Final answer' });
    await expect(final.locator('.final-text')).toHaveText(`${html} Helsinki`);

    await stepCard(playground, 1).getByRole('button', { name: 'What the model saw' }).click();
    const dialog = playground.page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Raw output' }).click();
    await expect(dialog.getByRole('tabpanel', { name: 'Raw output' }).locator('pre')).toContainText(html);

    expect(await playground.page.locator('.trace img, .trace script, dialog img, dialog script').count()).toBe(0);
    expect(await playground.page.evaluate(() => (window as { __traceInjected?: unknown }).__traceInjected)).toBeUndefined();
  });
});
