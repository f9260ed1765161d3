// A whole run through the real page, worker, engine and HTTP client against the scripted
// OpenAI-compatible server: what streams in, what it cost, stopping, and each fault's message.

import { formatUsd } from '../workers/engine/ledger.ts';
import type { Scenario, ScriptedResponse } from './fixtures/scenario.ts';
import { expect, loadScenario, scriptedConfig, test } from './support/playground.ts';

const TASK = 'What is the population of the capital of Finland?';
const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';

type Prices = Record<string, { inputPerM: number; outputPerM: number }>;

/** What one scripted response costs at the config's prices. */
function costOf(model: string, response: ScriptedResponse | undefined, prices: Prices): number {
  const usage = response?.usage;
  const price = prices[model];
  if (!usage || !price) throw new Error(`no usage or price for ${model}`);
  return (usage.prompt_tokens * price.inputPerM + usage.completion_tokens * price.outputPerM) / 1e6;
}

/** A one-step run: the orchestrator answers through answer-1 straight away. */
function quickAnswerScenario(): Scenario {
  return {
    models: {
      [ORCHESTRATOR]: [
        {
          repeat: true,
          content: '<think>Easy.</think>\n<tool_call>\n{"name": "answer", "arguments": {"model": "answer-1"}}\n</tool_call>',
          usage: { prompt_tokens: 900, completion_tokens: 20 },
        },
      ],
      'scripted/answerer': [{ repeat: true, content: '<answer>Helsinki</answer>', usage: { prompt_tokens: 300, completion_tokens: 5 } }],
    },
  };
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

  const faults = [
    {
      name: 'a rate limit that outlasts the retries',
      fault: { kind: 'status', status: 429, retryAfterSeconds: 1, times: 10 },
      title: 'Rate limited by the provider',
    },
    { name: 'a server error', fault: { kind: 'status', status: 500, times: 10 }, title: 'The provider’s server failed' },
    { name: 'a stream dropped midway', fault: { kind: 'drop_mid_stream', afterChunks: 2, times: 10 }, title: 'The connection failed' },
    {
      name: 'a server without CORS headers',
      fault: { kind: 'no_cors' },
      title: 'The browser blocked the request (CORS) or the server is unreachable',
    },
  ] as const;

  for (const { name, fault, title } of faults) {
    test(`${name} ends the run with its own clear message`, async ({ playground, scripted }) => {
      const server = await scripted.start(quickAnswerScenario());
      server.setFault(fault);
      const config = scriptedConfig(server.url);
      const providers = config.providers as Record<string, Record<string, unknown>>;
      // One retry keeps the test short and still shows the retry.
      config.providers = { scripted: { ...providers.scripted, maxRetries: 1 } };

      await playground.open();
      await playground.importConfig(config);
      await playground.run(TASK);
      await playground.waitForFinish();

      await expect(playground.runStatus).toContainText('Stopped by an error');
      await expect(playground.runStatus).toContainText(title);
      // The message is on the step where it happened, too.
      const alert = playground.steps().first().getByRole('alert');
      await expect(alert).toContainText(title);
      await expect(playground.page.getByText(/at [a-zA-Z]+\.[a-zA-Z]+ \(/)).toHaveCount(0); // no stack trace
    });
  }
});
