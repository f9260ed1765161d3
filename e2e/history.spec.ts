// Runs that last: every run is kept in IndexedDB as it streams, survives a reload, opens as
// recorded, replays with no network, and travels as a run file between profiles (and from the CLI).

import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type LaunchOptions, type Page } from '@playwright/test';
import type { Scenario } from '../cli/scripted/scenario.ts';
import { makeTempDir, runCli, writeConfig } from './fixtures/cliHarness.ts';
import { syntheticRun } from './fixtures/syntheticRun.ts';
import type { ScriptedServer } from '../cli/scripted/scriptedServer.ts';
import { expect, loadScenario, Playground as PlaygroundPage, scriptedConfig, test, type Playground } from './support/playground.ts';
import { expectNoStallOver, forgetStalls, installHeartbeat } from './security/support.ts';

const TASK = 'What is the population of the capital of Finland?';

// Each spec runs one or two whole runs through the real page and worker; on a loaded two-core CI
// box that takes well over Playwright's default 30 s.
test.describe.configure({ timeout: 120_000 });

function configFor(server: ScriptedServer): Record<string, unknown> {
  const base = scriptedConfig(server.url);
  return { ...base, orchestrator: { ...(base.orchestrator as object), toolMode: 'server' } };
}

/** Runs the two-step scenario (search, then answer) to its end. */
async function runOnce(playground: Playground, server: ScriptedServer): Promise<void> {
  await playground.open();
  await playground.importConfig(configFor(server));
  await playground.run(TASK);
  await playground.waitForFinish(60_000);
  await expect(playground.runStatus).toContainText('Answered');
}

async function historyRows(page: Page) {
  const panel = await page.getByRole('tablist', { name: 'Side panels' }).getByRole('tab', { name: 'History' }).click().then(() => page.getByRole('tabpanel', { name: 'History' }));
  return { panel, rows: panel.getByRole('list', { name: 'Stored runs' }).getByRole('article') };
}

/** The status line's words after the outcome ("2 steps · $0.0012 · 1.2 s"), the run's totals. */
async function totals(playground: Playground): Promise<string> {
  const text = (await playground.runStatus.textContent()) ?? '';
  return text.slice(text.indexOf('Answered'));
}

test.describe('run history', () => {
  test('keeps a run, shows it after a reload as recorded, and replays it with the server gone and no request', async ({
    playground,
    page,
    scripted,
  }) => {
    const server = await scripted.start(loadScenario('cli-paper-server'));
    await runOnce(playground, server);
    const live = await totals(playground);
    const liveSteps = await playground.steps().count();
    expect(liveSteps).toBe(2);

    await page.reload();
    await playground.task.waitFor();
    const { panel, rows } = await historyRows(page);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(TASK);
    await expect(rows.first()).toContainText('Answered');
    await expect(rows.first()).toContainText('2 steps');
    // TASK is a sample task, and the run stated its answer.
    await expect(rows.first()).toContainText('✓ correct');

    await rows.first().getByRole('button', { name: 'Open' }).click();
    await expect(page.getByTestId('stored-run-banner')).toContainText('Recorded run');
    await expect(playground.steps()).toHaveCount(2);
    await expect(playground.trace.getByRole('heading', { name: /Trace/ })).toContainText('Recorded');
    expect(await totals(playground)).toBe(live);

    // The server is gone: a replay needs nothing of it.
    const requestsBefore = server.requests.length;
    await server.close();
    await panel.getByRole('list', { name: 'Stored runs' }).getByRole('article').first().getByRole('button', { name: 'Replay' }).click();
    const banner = page.getByTestId('stored-run-banner');
    await expect(banner).toContainText('Replay');
    await banner.getByRole('combobox').selectOption('instant');
    await expect(playground.steps()).toHaveCount(2);
    await expect(playground.runStatus).toContainText('Answered');
    expect(await totals(playground)).toBe(live);
    expect(server.requests.length).toBe(requestsBefore);

    // Stepping: back to the first step, then forward again.
    await banner.getByRole('button', { name: 'Previous step' }).click();
    await expect(playground.steps()).toHaveCount(1);
    await expect(banner).toContainText('Step 1 of 2');
    await banner.getByRole('button', { name: 'Next step' }).click();
    await expect(playground.steps()).toHaveCount(2);
    await page.screenshot({ path: test.info().outputPath('replay.png') });
  });

  test('exports a run and imports it into a fresh profile with the same trace and totals', async ({ playground, page, scripted, browser }) => {
    const server = await scripted.start(loadScenario('cli-paper-server'));
    await runOnce(playground, server);
    const live = await totals(playground);
    const { rows } = await historyRows(page);
    const download = page.waitForEvent('download');
    await rows.first().getByRole('button', { name: 'Export' }).click();
    const file = await (await download).path();
    const text = await readFile(file, 'utf8');
    expect(text).toContain('"format":"orchestra-playground/runs"');

    const fresh = await browser.newContext();
    try {
      const other = await fresh.newPage();
      await other.goto('/');
      const { panel, rows: otherRows } = await historyRows(other);
      await expect(panel).toContainText('No runs yet');
      await panel.getByTestId('history-import-input').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(text) });
      await expect(panel.getByRole('status')).toContainText('Imported 1 run');
      await expect(otherRows).toHaveCount(1);
      await otherRows.first().getByRole('button', { name: 'Open' }).click();
      const otherStatus = other.getByRole('status', { name: 'Run status' });
      await expect(otherStatus).toContainText('Answered');
      const imported = (await otherStatus.textContent()) ?? '';
      expect(imported.slice(imported.indexOf('Answered'))).toBe(live);
      await expect(other.getByRole('region', { name: 'Trace' }).getByRole('article')).toHaveCount(2);
    } finally {
      await fresh.close();
    }
  });

  test('refuses malformed, truncated, wrong-version and 50 MB files with a clear message, and the page stays responsive', async ({ page }) => {
    test.setTimeout(120_000);
    await installHeartbeat(page);
    await page.goto('/');
    const { panel } = await historyRows(page);
    const input = panel.getByTestId('history-import-input');
    const alert = panel.getByRole('alert');
    const good = { format: 'orchestra-playground/runs', version: 1, runs: [] };
    // Over Playwright's 50 MB limit for a buffer: the file goes by its path.
    const huge = test.info().outputPath('huge.json');
    await writeFile(huge, Buffer.alloc(50 * 1024 * 1024 + 1024, 0x20));
    const cases: Array<[string, string, RegExp]> = [
      ['not-json.json', 'this is not json', /not JSON/],
      ['cut.json', JSON.stringify({ ...good, runs: [{ id: 'a', events: [{ type: 'run_started' }] }] }).slice(0, 60), /cut short/],
      ['newer.json', JSON.stringify({ ...good, version: 9 }), /newer version of the playground/],
      ['other.json', JSON.stringify({ format: 'something-else', version: 1, runs: [] }), /not a run file/],
      ['bad-event.json', JSON.stringify({ ...good, runs: [{ id: 'a', events: [{ type: 'step_started', runId: 'a', t: 0, step: 'two' }] }] }), /runs\[0\]\.events\[0\]\.step/],
      ['huge.json', huge, /50.0 MB; run files are read up to/],
    ];
    // The page's thread while files are read, start-up aside.
    await forgetStalls(page);
    for (const [name, content, message] of cases) {
      await input.setInputFiles(content === huge ? huge : { name, mimeType: 'application/json', buffer: Buffer.from(content) });
      await expect(alert).toContainText(`"${name}" was not imported`);
      await expect(alert).toContainText(message);
    }
    // Reading happens in a worker: the page's thread is never held for long (setInputFiles itself
    // hands 50 MB to the page, which costs the page its copy).
    await expectNoStallOver(page, 1000);
    await expect(panel).toContainText('No runs yet');
  });

  test('a browser killed mid-run leaves every completed step, shown as interrupted when reopened', async ({ scripted }, testInfo) => {
    test.setTimeout(120_000);
    // The answer turn never comes: the run is still going at step 2 when the browser dies.
    const scenario = loadScenario('cli-paper-server');
    const orchestrator = scenario.models['nvidia/Nemotron-Orchestrator-8B']!;
    const hanging: Scenario = {
      models: { ...scenario.models, 'nvidia/Nemotron-Orchestrator-8B': orchestrator.map((response) => (response.when ? { ...response, fault: { kind: 'hang', times: 100 } } : response)) },
    };
    const server = await scripted.start(hanging);
    const profile = await mkdtemp(join(tmpdir(), 'orchestra-profile-'));
    const launchOptions = (testInfo.project.use.launchOptions ?? {}) as LaunchOptions;
    const launch = () => chromium.launchPersistentContext(profile, { ...launchOptions, baseURL: testInfo.project.use.baseURL, serviceWorkers: 'block' });
    try {
      const first = await launch();
      const page = first.pages()[0] ?? (await first.newPage());
      const playground = new PlaygroundPage(page);
      await playground.open();
      await playground.importConfig(configFor(server));
      await playground.run(TASK);
      await expect(playground.steps()).toHaveCount(2, { timeout: 60_000 });
      const { rows } = await historyRows(page);
      // The summary written with the last batch: step 2 begun, the run still recording.
      await expect(rows.first()).toContainText('Recording…');
      await expect(rows.first()).toContainText('2 steps');

      // Not a closed page: the browser process and its children, killed outright.
      execFileSync('pkill', ['-KILL', '-f', profile]);
      await first.close().catch(() => undefined);

      const second = await launch();
      try {
        const again = second.pages()[0] ?? (await second.newPage());
        await again.goto('/');
        const reopened = await historyRows(again);
        await expect(reopened.rows).toHaveCount(1);
        await expect(reopened.rows.first()).toContainText('Interrupted at step 2');
        await reopened.rows.first().getByRole('button', { name: 'Open' }).click();
        await expect(again.getByTestId('stored-run-banner')).toContainText('interrupted at step 2');
        const steps = again.getByRole('region', { name: 'Trace' }).getByRole('article');
        await expect(steps).toHaveCount(2);
        // Step 1 is whole: the search's query and results came back before the kill.
        await expect(steps.first()).toContainText('search');
        await expect(again.getByRole('status', { name: 'Run status' })).toContainText('Interrupted at step 2');
      } finally {
        await second.close();
      }
    } finally {
      await rm(profile, { recursive: true, force: true });
    }
  });
});

test('compares two runs that part at step 2: the strip marks step 2, with each run’s figures and reward', async ({ playground, page, scripted }) => {
  const scenario = loadScenario('cli-paper-server');
  const server = await scripted.start(scenario);
  await runOnce(playground, server);

  // The second run answers through answer-1 (the dearer expert) instead of answer-2.
  const orchestrator = scenario.models['nvidia/Nemotron-Orchestrator-8B']!;
  server.reset({
    models: {
      ...scenario.models,
      'nvidia/Nemotron-Orchestrator-8B': orchestrator.map((response) =>
        response.when ? { ...response, toolCalls: [{ name: 'answer', arguments: { model: 'answer-1' } }] } : response,
      ),
      'scripted/answerer': [{ repeat: true, content: '<answer>558,457</answer>', usage: { prompt_tokens: 2010, completion_tokens: 9 } }],
    },
  });
  await playground.run(TASK);
  await playground.waitForFinish(60_000);

  const { panel, rows } = await historyRows(page);
  await expect(rows).toHaveCount(2);
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await panel.getByRole('button', { name: 'Compare 2' }).click();

  const compare = page.getByRole('region', { name: 'Compare runs' });
  await expect(compare).toContainText('The routes first part at step 2.');
  const parting = compare.locator('.compare-step.parting');
  await expect(parting).toHaveCount(1);
  await expect(parting).toHaveAttribute('data-step', '2');
  await expect(parting).toContainText('answer · answer-1');
  await expect(parting).toContainText('answer · answer-2');
  await expect(compare.locator('.compare-step[data-step="1"]')).not.toHaveClass(/parting/);
  // The sample task's answer is known: both are right, and under "Cheapest" the cheaper run wins.
  await compare.getByRole('combobox').selectOption('cheapest');
  const reward = compare.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Reward', exact: true }) });
  // Each cell leads with the number, then says why in words (compare-reward.spec.ts).
  const [newer, older] = (await reward.getByRole('cell').locator('strong').allTextContents()).map(Number);
  // Newest first: the answer-1 run is the dearer one.
  expect(older).toBeGreaterThan(newer!);
  // The cost column does not pass off the last run's figures as the compared runs'.
  await expect(page.getByRole('region', { name: 'Cost and latency' })).toContainText('Comparing 2 runs');
  await page.screenshot({ path: test.info().outputPath('compare.png') });
  await compare.getByRole('button', { name: /Close/ }).click();
  await expect(page.getByRole('region', { name: 'Cost and latency' })).toContainText('Total cost');
});

test('runs a stored run again after step 2 under another preference: no request for steps 1–2, which equal the parent’s', async ({
  playground,
  page,
  scripted,
}) => {
  const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
  const base = loadScenario('cli-paper-server');
  const [answerTurn, searchTurn] = base.models[ORCHESTRATOR]!;
  // Three steps: search, search again, then answer through answer-2.
  const threeSteps: Scenario = {
    models: { ...base.models, [ORCHESTRATOR]: [{ ...searchTurn!, when: 'Documents:', repeat: false }, answerTurn!, searchTurn!] },
  };
  const server = await scripted.start(threeSteps);
  await playground.open();
  await playground.importConfig(configFor(server));
  await playground.run(TASK);
  await playground.waitForFinish(60_000);
  await expect(playground.steps()).toHaveCount(3);
  const parentSteps = await playground.steps().allTextContents();

  // Another preference; from step 3 the orchestrator now answers through answer-1.
  await playground.openTab('Task');
  await playground.preferences.getByRole('radio', { name: 'Best answer' }).check();
  server.reset({
    models: {
      [ORCHESTRATOR]: [{ ...answerTurn!, when: undefined, repeat: true, toolCalls: [{ name: 'answer', arguments: { model: 'answer-1' } }] }],
      'scripted/answerer': [{ repeat: true, content: '<answer>558,457</answer>', usage: { prompt_tokens: 2010, completion_tokens: 9 } }],
    },
  });

  const { rows } = await historyRows(page);
  await rows.first().getByRole('button', { name: 'Open' }).click();
  const banner = page.getByTestId('stored-run-banner');
  await banner.getByRole('combobox', { name: 'Run again from' }).selectOption({ label: 'after step 2' });
  await expect(banner).toContainText('Steps 1–2 are kept as recorded and call nothing');
  page.once('dialog', (dialog) => void dialog.accept());
  await banner.getByRole('button', { name: 'Run again' }).click();
  await playground.openTab('Task');
  await playground.waitForFinish(60_000);
  await expect(playground.runStatus).toContainText('Answered');

  // One request each for step 3's orchestrator turn and its answer; none for steps 1–2.
  expect(server.requests.map((request) => (request.body as { model?: string } | undefined)?.model)).toEqual([ORCHESTRATOR, 'scripted/answerer']);
  const forkSteps = await playground.steps().allTextContents();
  expect(forkSteps).toHaveLength(3);
  expect(forkSteps.slice(0, 2)).toEqual(parentSteps.slice(0, 2));
  expect(forkSteps[2]).toContain('answer-1');

  const history = await historyRows(page);
  await expect(history.rows).toHaveCount(2);
  await expect(history.rows.first()).toContainText('forked from step 2');
});

test('imports and replays a run the CLI saved, and the CLI replays what the playground exported', async ({ playground, page, scripted }) => {
  test.setTimeout(120_000);
  const server = await scripted.start(loadScenario('cli-paper-server'));
  const dir = makeTempDir();
  const { path } = writeConfig(dir, 'local-scripted.json', server.url, (config) => {
    config.orchestrator.toolMode = 'server';
  });
  const saved = join(dir, 'cli-run.json');
  const cli = await runCli(['run', '--config', path, '--task', TASK, '--save', saved]);
  expect(cli.code).toBe(0);

  await page.goto('/');
  const { panel, rows } = await historyRows(page);
  await panel.getByTestId('history-import-input').setInputFiles(saved);
  await expect(panel.getByRole('status')).toContainText('Imported 1 run');
  await rows.first().getByRole('button', { name: 'Replay' }).click();
  const banner = page.getByTestId('stored-run-banner');
  await banner.getByRole('combobox').selectOption('instant');
  await expect(playground.runStatus).toContainText('Answered');
  await expect(playground.steps()).toHaveCount(2);
  await expect(playground.trace).toContainText('558,457');

  // And back: the playground's export replays in the CLI, calling nothing.
  const requests = server.requests.length;
  const download = page.waitForEvent('download');
  await rows.first().getByRole('button', { name: 'Export' }).click();
  const exported = await (await download).path();
  const replay = await runCli(['replay', exported]);
  expect(replay.code).toBe(0);
  expect(replay.stdout).toContain('558,457');
  expect(server.requests.length).toBe(requests);
});

test('opens and replays a long stored run: the virtualised trace shows its steps, and only those in view', async ({ playground, page }) => {
  // A replay paused at its third step, then played "At once", jumps from three steps to 3,000 in a
  // few commits. The three rows the plain list had were once kept rendered, with every row between
  // them and the view at the end: 3,000 cards, let go five a frame (a 100,000-step run hung the page).
  test.slow();
  const steps = 3_000;
  const events = syntheticRun('long-run', 1, steps);
  const file = JSON.stringify({ format: 'orchestra-playground/runs', version: 1, exportedAt: new Date().toISOString(), runs: [{ id: 'long-run', events }] });
  await page.goto('/');
  const { panel, rows } = await historyRows(page);
  await panel.getByTestId('history-import-input').setInputFiles({ name: 'long.json', mimeType: 'application/json', buffer: Buffer.from(file) });
  await expect(panel.getByRole('status')).toContainText('Imported 1 run');
  await rows.first().getByRole('button', { name: 'Open' }).click();
  await expect(playground.trace).toContainText('3,000 steps', { timeout: 30_000 });
  await expect(playground.steps().first()).toBeVisible();
  await rows.first().getByRole('button', { name: 'Replay' }).click();
  const controls = page.getByRole('group', { name: 'Replay controls' });
  await controls.getByRole('button', { name: 'Pause' }).click();
  await controls.getByRole('combobox', { name: 'Speed' }).selectOption('instant');
  // "Step ▶" shows the rest of the step under way: a step's card comes with the click after.
  await expect(async () => {
    if ((await playground.steps().count()) < 3) await controls.getByRole('button', { name: 'Next step' }).click();
    expect(await playground.steps().count()).toBeGreaterThanOrEqual(3);
  }).toPass({ timeout: 15_000 });
  expect(await playground.steps().count()).toBeLessThan(30);
  await controls.getByRole('button', { name: 'Play' }).click();
  await expect(playground.runStatus).toContainText('Answered', { timeout: 30_000 });
  await expect(playground.steps().first()).toBeVisible();
  await expect.poll(() => playground.steps().count(), { timeout: 10_000 }).toBeLessThan(30);
});
