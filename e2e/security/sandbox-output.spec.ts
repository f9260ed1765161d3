// Sandbox output is capped before it reaches the model or the page (issue 8, item 5): Python and
// QuickJS code that throws an 8 MB exception, or prints megabytes, through a normal
// function-calling run against the scripted server. What the next model request carries and what
// the page shows stay small, and say what was cut and how much.

import type { Scenario } from '../../cli/scripted/scenario.ts';
import { scriptedConfig } from '../support/playground.ts';
import { expect, test } from './fixtures.ts';


const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
const usage = { prompt_tokens: 400, completion_tokens: 30 };
const call = (name: string, args: Record<string, unknown>) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

test('an 8 MB exception and megabytes of output reach neither the model nor the page whole', async ({ page, playground, scripted, sink: _sink }) => {
  test.setTimeout(240_000);
  const calls = [
    call('run_python', { code: 'raise ValueError("x" * 8_000_000)' }),
    call('run_python', { code: 'print("p" * 4_000_000)' }),
    call('run_javascript', { code: 'throw new Error("j".repeat(8_000_000))' }),
    call('run_javascript', { code: 'for (let i = 0; i < 4000; i++) console.log("q".repeat(1000)); 1' }),
  ].join('\n');
  const scenario: Scenario = {
    models: {
      [ORCHESTRATOR]: [
        { when: '<tool_response>', repeat: true, content: '<message>Done.</message>', usage },
        { content: `<think>Try the sandboxes.</think>\n${calls}`, usage },
      ],
    },
  };
  const server = await scripted.start(scenario);
  await playground.open();
  await playground.importConfig(
    scriptedConfig(server.url, {
      protocol: 'function-calling',
      experts: {},
      functionCalling: { system: 'You compute.', tools: ['run_python', 'run_javascript'] },
    }),
  );
  await playground.run('Break things.');
  await playground.waitForFinish(200_000);
  await expect(playground.runStatus).toContainText('Answered');

  // The turn after the calls: four capped observations, each saying what was cut.
  const turns = server.requests.filter((request) => (request.body as { model?: string } | undefined)?.model === ORCHESTRATOR);
  expect(turns).toHaveLength(2);
  const secondTurn = JSON.stringify(turns[1]?.body);
  expect(secondTurn.length).toBeLessThan(200_000);
  expect(secondTurn).toMatch(/ValueError: x+\\n… \[7,99\d,\d{3} more characters cut\]/);
  expect(secondTurn).toMatch(/Error: j+\\n… \[7,99\d,\d{3} more characters cut\]/);
  expect(secondTurn).toMatch(/p+\\n… \[3,9\d\d,\d{3} more bytes cut\]/);
  expect(secondTurn).toMatch(/q+\\n… \[3,9\d\d,\d{3} more characters cut\]/);

  // The page holds the same capped text, not megabytes.
  const shown = await page.evaluate(() => document.body.innerText.length + document.body.innerHTML.length);
  expect(shown).toBeLessThan(2_000_000);
  await expect(playground.trace).toContainText('more characters cut');
});
