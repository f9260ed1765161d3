// "You are the orchestrator": a person takes each turn from the same menu the model reads, in the
// real page, worker and engine, against the scripted server for the experts. The orchestrator's
// model is never called; the person's query replaces the search expert's; the answer expert they
// chose is called and charged.

import { formatUsd } from '../workers/engine/format.ts';
import type { Scenario } from '../cli/scripted/scenario.ts';
import { expect, scriptedConfig, test, type Playground } from './support/playground.ts';

const ANSWER_USAGE = { prompt_tokens: 300, completion_tokens: 5 };
const scenario: Scenario = {
  models: {
    'scripted/answerer-mini': [{ repeat: true, content: '<answer>Helsinki</answer>', usage: ANSWER_USAGE }],
    // When the orchestrator tries the same task: straight to the strong (dear) answer model.
    'nvidia/Nemotron-Orchestrator-8B': [
      { repeat: true, content: '<tool_call>\n{"name": "answer", "arguments": {"model": "answer-1"}}\n</tool_call>', usage: { prompt_tokens: 900, completion_tokens: 20 } },
    ],
    'scripted/answerer': [{ repeat: true, content: '<answer>Helsinki</answer>', usage: { prompt_tokens: 300, completion_tokens: 5 } }],
  },
};

function yourTurn(playground: Playground) {
  return playground.page.getByRole('region', { name: /^Your turn/ });
}

async function startManual(playground: Playground, serverUrl: string): Promise<void> {
  await playground.open();
  await playground.importConfig(scriptedConfig(serverUrl));
  await playground.page.getByRole('checkbox', { name: /You are the orchestrator/ }).check();
  await playground.run('What is the capital of Finland?');
}

test('a person’s choices make the route: their own query, then the cheap answer model; the orchestrator model is never called', async ({
  playground,
  scripted,
}, testInfo) => {
  const server = await scripted.start(scenario);
  await startManual(playground, server.url);

  const turn = yourTurn(playground);
  await expect(turn).toContainText('Your turn');
  // The person's thinking time is in the run's time but not scored: said where they choose, and where they opt in (issue 24, item 6).
  await expect(turn).toContainText('the reward’s latency term counts only the tools’ and models’ time: your thinking time is shown apart');
  await expect(playground.page.getByRole('checkbox', { name: /You are the orchestrator/, includeHidden: true })).toHaveAccessibleDescription(/Your thinking time counts in the run’s time/);
  // The menu the model reads: the paper's tools, each alias with its prices and latency.
  await turn.getByRole('radio', { name: /^search/ }).check();
  await expect(turn.getByRole('radio', { name: /search-1/ })).toBeVisible();
  await expect(turn).toContainText('in $0.25 · out $2 per M tokens · about 3s');
  await turn.getByRole('radio', { name: /search-1/ }).check();
  await turn.getByRole('textbox', { name: /Write the search query yourself/ }).fill('Helsinki capital of Finland');
  await playground.page.screenshot({ path: testInfo.outputPath('your-turn.png'), fullPage: false });
  await turn.getByRole('button', { name: 'Make this call' }).click();

  // The next turn reads the documents the search found (the corpus index builds on first use).
  await expect(turn).toContainText('step 2', { timeout: 30_000 });
  await turn.getByText('What the orchestrator would read this turn').click();
  await expect(turn.locator('pre')).toContainText('Doc 1:');
  await turn.getByRole('radio', { name: /^answer/ }).check();
  await turn.getByRole('radio', { name: /answer-2/ }).check();
  await turn.getByRole('button', { name: 'Answer with this model' }).click();

  await playground.waitForFinish();
  await expect(turn).toHaveCount(0);
  await expect(playground.runStatus).toContainText('Answered · 2 steps');
  await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText('Helsinki');
  const steps = playground.steps();
  await expect(steps).toHaveCount(2);
  await expect(steps.nth(0)).toContainText('search-1');
  await expect(steps.nth(1)).toContainText('answer-2');
  // Only the answer expert was called: the person wrote the query, and their turns are free.
  const modelsCalled = server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions')).map((r) => (r.body as { model: string }).model);
  expect(modelsCalled).toEqual(['scripted/answerer-mini']);
  const answerUsd = (ANSWER_USAGE.prompt_tokens * 0.25 + ANSWER_USAGE.completion_tokens * 2) / 1e6;
  await expect(playground.totalCost).toContainText(formatUsd(answerUsd));

  // Then the orchestrator takes the same task, and the two are scored side by side.
  const over = playground.page.getByRole('region', { name: 'Your run is over' });
  await over.getByRole('button', { name: 'Let the orchestrator try it' }).click();
  const comparison = playground.page.getByRole('region', { name: 'You against the orchestrator' });
  await expect(comparison.getByRole('table')).toBeVisible({ timeout: 30_000 });
  await expect(comparison).toContainText('search → search-1');
  await expect(comparison).toContainText('answer → answer-1');
  // No reference answer for this task: nobody is right until the person says so, and a wrong
  // answer scores 0.
  await expect(comparison.getByLabel('Your reward')).toHaveText('0');
  await comparison.getByRole('checkbox', { name: 'your answer is right' }).check();
  await comparison.getByRole('checkbox', { name: 'its answer is right' }).check();
  await expect(comparison).toContainText('the orchestrator was the dearer of the two');
  await expect(comparison).toContainText('Cost counted 0.25 of the reward');
  // The person's thinking is shown apart, and the latency term scores the tools' and models' time only.
  await expect(comparison.getByRole('row', { name: /^Your thinking time \(not scored\)/ })).toBeVisible();
  await expect(comparison).toContainText('is shown apart and not scored: your time above is the tools’ and models’ only');
  await playground.page.screenshot({ path: testInfo.outputPath('you-against-the-orchestrator.png'), fullPage: false });
  // Moving the preference scores the same two runs again.
  const before = await comparison.getByLabel('Your reward').textContent();
  await playground.preferences.getByRole('radio', { name: 'Cheapest' }).check();
  await expect(comparison.getByLabel('Your reward')).not.toHaveText(before ?? '');
});

test('Stop while the person is choosing ends the run at once and takes the turn away', async ({ playground, scripted }) => {
  const server = await scripted.start(scenario);
  await startManual(playground, server.url);
  await expect(yourTurn(playground)).toBeVisible();
  await playground.stopButton.click();
  await playground.waitForFinish(10_000);
  await expect(yourTurn(playground)).toHaveCount(0);
  await expect(playground.runStatus).toContainText(/stopped/i);
  expect(server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'))).toEqual([]);
});

test('manual runs follow the paper protocol: a function-calling config is refused with what to do', async ({ playground, scripted }) => {
  const server = await scripted.start(scenario);
  await playground.open();
  await playground.importConfig(scriptedConfig(server.url, { protocol: 'function-calling' }));
  await playground.page.getByRole('checkbox', { name: /You are the orchestrator/ }).check();
  await playground.run('What is the capital of Finland?');
  await expect(playground.runStatus).toContainText('paper protocol only');
});
