// A whole run through the real page, worker, engine and HTTP client against the scripted
// OpenAI-compatible server: what streams in, what it cost, stopping, and each fault's message.

import { formatUsd } from '../workers/engine/format.ts';
import type { Scenario } from '../cli/scripted/scenario.ts';
import { startScriptedServer } from '../cli/scripted/scriptedServer.ts';
import { costOf, everyTurn, expect, loadScenario, scriptedConfig, test, type Prices } from './support/playground.ts';

const TASK = 'What is the population of the capital of Finland?';
const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';

/** A one-step run: the orchestrator answers through answer-1 straight away. */
function quickAnswerScenario(): Scenario {
  return everyTurn(
    { content: '<think>Easy.</think>\n<tool_call>\n{"name": "answer", "arguments": {"model": "answer-1"}}\n</tool_call>', usage: { prompt_tokens: 900, completion_tokens: 20 } },
    { model: 'scripted/answerer', content: '<answer>Helsinki</answer>', usage: { prompt_tokens: 300, completion_tokens: 5 } },
  );
}

/** The config with one retry: keeps a failing test short and still shows the retry. */
function withOneRetry(config: Record<string, unknown>): Record<string, unknown> {
  const providers = config.providers as Record<string, Record<string, unknown>>;
  return { ...config, providers: { scripted: { ...providers.scripted, maxRetries: 1 } } };
}

test.describe('a run in the playground', () => {
  test('streams every step and charges what the scenario used at the configured prices', async ({
    playground,
    scripted,
    consoleErrors,
  }) => {
    // The code step boots Pyodide in the browser: seconds on a quiet machine, much longer on a loaded CI box.
    test.setTimeout(180_000);
    const scenario = loadScenario('cli-paper-prompt');
    const server = await scripted.start(scenario);
    // Code seconds are priced at 0 here, so every figure is exact; the CLI tests cover the code rate.
    const base = scriptedConfig(server.url);
    const pricing = base.pricing as { models: Prices };
    const config = { ...base, pricing: { ...pricing, codePerSecond: 0 } };

    await playground.open();
    await playground.importConfig(config);
    await playground.run(TASK);

    // The first step is on screen while the run still goes.
    await expect(playground.steps().first()).toBeVisible();
    await expect(playground.stopButton).toBeEnabled();
    await playground.waitForFinish(150_000);

    const orchestrator = scenario.models[ORCHESTRATOR] ?? [];
    // The scenario's orchestrator responses are listed last turn first (matched by `when`).
    const [answerTurn, codeTurn, searchTurn] = orchestrator;
    const prices = pricing.models;
    const expectedSteps = [
      costOf(ORCHESTRATOR, searchTurn, prices) + costOf('scripted/searcher', scenario.models['scripted/searcher']?.[0], prices),
      costOf(ORCHESTRATOR, codeTurn, prices) + costOf('scripted/coder', scenario.models['scripted/coder']?.[0], prices),
      costOf(ORCHESTRATOR, answerTurn, prices) + costOf('scripted/answerer', scenario.models['scripted/answerer']?.[0], prices),
    ];
    const steps = playground.steps();
    await expect(steps).toHaveCount(3);
    for (const [index, cost] of expectedSteps.entries()) {
      await expect(steps.nth(index)).toContainText(formatUsd(cost));
    }
    const total = expectedSteps.reduce((sum, cost) => sum + cost, 0);
    await expect(playground.totalCost).toContainText(formatUsd(total));
    await expect(playground.runStatus).toContainText('Answered');
    await expect(playground.trace).toContainText('558,457');
    // The code the coder wrote ran in the browser's Python sandbox, and code and output reached
    // the next turn's context exactly as the protocol lays them out (a ```python block, then an
    // ```output block, under "python code and execution outputs:"), the code byte for byte as
    // extracted, newlines included, as the reference keeps it.
    await expect(playground.trace).toContainText('Helsinki population in thousands: 558.5');
    const coderReply = scenario.models['scripted/coder']?.[0]?.content ?? '';
    const code = (coderReply.split('```python').at(-1) ?? '').split('```')[0];
    expect(code).toMatch(/^\n[^]*\n$/);
    const orchestratorTurns = server.requests.filter(
      (request) => request.method === 'POST' && (request.body as { model?: string } | undefined)?.model === ORCHESTRATOR,
    );
    const lastTurn = orchestratorTurns.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
    expect(lastTurn.messages.at(-1)?.content).toContain(
      `\npython code and execution outputs:\n\`\`\`python\n${code}\n\`\`\`\n\n\`\`\`output\nHelsinki population in thousands: 558.5\n\n\`\`\`\n\n`,
    );
    expect(consoleErrors).toEqual([]);
  });

  test('Stop ends a streaming run within a second and says so; Run works again', async ({ playground, scripted }) => {
    const slow: Scenario = {
      models: {
        [ORCHESTRATOR]: [
          {
            content: `<think>${'Thinking slowly about this. '.repeat(80)}</think>`,
            chunkSize: 4,
            chunkDelayMs: 50,
            usage: { prompt_tokens: 1000, completion_tokens: 500 },
          },
        ],
      },
    };
    const server = await scripted.start(slow);
    await playground.open();
    await playground.importConfig(scriptedConfig(server.url));
    await playground.run(TASK);

    await expect(playground.steps().first()).toContainText('Thinking slowly');
    await playground.stopButton.click();
    // The page times the stop itself, from the press to the run's end, and says so; measuring
    // from here would add the test driver's own round trips on a loaded machine.
    await expect(playground.runStatus).toContainText(/Stopped by you in \d+/);
    const stoppedIn = /Stopped by you in (\d+(?:\.\d)?) (ms|s)/.exec((await playground.runStatus.textContent()) ?? '');
    const stopMs = Number(stoppedIn?.[1]) * (stoppedIn?.[2] === 's' ? 1000 : 1);
    expect(stopMs).toBeLessThan(1000);
    await expect(playground.runButton).toBeEnabled();

    server.reset(quickAnswerScenario());
    await playground.runButton.click();
    await playground.waitForFinish();
    await expect(playground.runStatus).toContainText('Answered');
    await expect(playground.trace).toContainText('Helsinki');
    // Only the new run is on screen: nothing of the stopped one leaks into it.
    await expect(playground.steps()).toHaveCount(1);
    await expect(playground.trace).not.toContainText('Thinking slowly');
  });

  test('Run with an empty task is refused and the last run stays as it was', async ({ playground, scripted }) => {
    const server = await scripted.start(quickAnswerScenario());
    await playground.open();
    await playground.importConfig(scriptedConfig(server.url));
    await playground.run(TASK);
    await playground.waitForFinish();
    await expect(playground.runStatus).toContainText('Answered');
    const requestsBefore = server.requests.length;

    await playground.run('   ');
    // The previous run is untouched: its status, its steps, its answer and its cost.
    await expect(playground.runStatus).toContainText('Answered');
    await expect(playground.steps()).toHaveCount(1);
    await expect(playground.trace.getByRole('region', { name: 'Final answer' })).toContainText('Helsinki');
    await expect(playground.totalCost).not.toHaveText('—');
    expect(server.requests.length).toBe(requestsBefore);
    // Said where the task is typed, and the box takes the focus to type it.
    await expect(playground.page.getByRole('alert').filter({ hasText: 'Type a task first.' })).toBeVisible();
    await expect(playground.task).toBeFocused();
    await expect(playground.task).toHaveAttribute('aria-invalid', 'true');

    // Typing clears the complaint.
    await playground.task.fill('W');
    await expect(playground.page.getByRole('alert').filter({ hasText: 'Type a task first.' })).toHaveCount(0);
  });

  test('a local server that is not running: what most likely happened, said once', async ({ playground }) => {
    // A port that was just free: nothing listens there.
    const gone = await startScriptedServer({ scenario: quickAnswerScenario() });
    await gone.close();
    const host = new URL(gone.url).host;

    await playground.open();
    await playground.importConfig(withOneRetry(scriptedConfig(gone.url)));
    await playground.run(TASK);
    await playground.waitForFinish();

    await expect(playground.runStatus).toContainText('Stopped by an error');
    await expect(playground.runStatus).toContainText(`Nothing answers at ${host} — is the server running?`);
    // Once on the page, the likelier cause first. The app is cross-origin isolated, where a server
    // that answers without CORS headers fails the probe the same way, so that is named after it.
    await expect(playground.page.getByText(/Nothing answers at/)).toHaveCount(1);
    await expect(playground.runStatus).not.toContainText(/Ollama/);
    await expect(playground.trace).not.toContainText(/CORS|Ollama/);
    // The step where it happened points at it rather than repeating it.
    await expect(playground.steps().first()).toContainText('The run stopped here');
  });

  const faults = [
    {
      name: 'a rate limit that outlasts the retries',
      fault: { kind: 'status', status: 429, retryAfterSeconds: 1, times: 10 },
      title: 'Rate limited by the provider',
    },
    { name: 'a server error', fault: { kind: 'status', status: 500, times: 10 }, title: 'The provider’s server failed' },
    { name: 'a stream dropped midway', fault: { kind: 'drop_mid_stream', afterChunks: 2, times: 10 }, title: 'The connection failed' },
    // Cross-origin isolated, the page cannot tell this from a server that is down: the message
    // leads with that and names CORS (the CLI and a page without isolation say CORS alone).
    {
      name: 'a server without CORS headers',
      fault: { kind: 'no_cors' },
      title: 'allows requests from this page',
    },
  ] as const;

  for (const { name, fault, title } of faults) {
    test(`${name} ends the run with its own clear message`, async ({ playground, scripted }) => {
      const server = await scripted.start(quickAnswerScenario());
      server.setFault(fault);

      await playground.open();
      await playground.importConfig(withOneRetry(scriptedConfig(server.url)));
      await playground.run(TASK);
      await playground.waitForFinish();

      await expect(playground.runStatus).toContainText('Stopped by an error');
      await expect(playground.runStatus).toContainText(title);
      // Said once: the step where it happened points at the status rather than repeating it.
      await expect(playground.page.getByText(title)).toHaveCount(1);
      await expect(playground.steps().first()).toContainText('The run stopped here');
      await expect(playground.page.getByText(/at [a-zA-Z]+\.[a-zA-Z]+ \(/)).toHaveCount(0); // no stack trace
    });
  }
});
