// The proof issue 8 asks for: the Python escape it found, written by an expert model and run by a
// normal run of the playground (paper protocol, enhance_reasoning) against the scripted server,
// reaches nothing — no request leaves for the attacker's server, neither from the escape itself
// nor from a hook that would read the next code run — and the run goes on to its answer.

import type { Scenario } from '../../cli/scripted/scenario.ts';
import { scriptedConfig } from '../support/playground.ts';
import { timerReceiverEscape } from './attacks.ts';
import { expect, test } from './fixtures.ts';
import { WorkerInspector } from './support.ts';

const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
const SECOND_OUTPUT = 'SECOND-RUN: a result nobody else may read';

const useCoder = (why: string) =>
  `<think>${why}</think>\n<tool_call>\n{"name": "enhance_reasoning", "arguments": {"model": "reasoner-1"}}\n</tool_call>`;

/** Two code runs (the escape, then ordinary code whose run the planted hook would read), then the answer. */
function escapeScenario(sinkUrl: string): Scenario {
  const usage = { prompt_tokens: 500, completion_tokens: 40 };
  return {
    models: {
      [ORCHESTRATOR]: [
        {
          when: 'SECOND-RUN',
          repeat: true,
          content: '<tool_call>\n{"name": "answer", "arguments": {"model": "answer-1"}}\n</tool_call>',
          usage,
        },
        { when: '```output', content: useCoder('Compute it properly now.'), usage },
        { content: useCoder('Let code look around first.'), usage },
      ],
      'scripted/coder': [
        { content: `Here is the code:\n\`\`\`python\n${timerReceiverEscape(sinkUrl)}\n\`\`\``, usage },
        { content: `\`\`\`python\nprint(${JSON.stringify(SECOND_OUTPUT)})\n\`\`\``, usage },
      ],
      'scripted/answerer': [{ repeat: true, content: '<answer>42</answer>', usage }],
    },
  };
}

test('an expert’s Python escape, run by a normal run, reaches nothing and reads no later run', async ({ page, playground, scripted, sink }) => {
  test.setTimeout(240_000);
  const server = await scripted.start(escapeScenario(sink.url));
  const inspector = await WorkerInspector.attach(page);
  await playground.open();
  await playground.importConfig(scriptedConfig(server.url));
  await playground.run('What is six times seven?');
  await playground.waitForFinish(200_000);

  await expect(playground.runStatus).toContainText('Answered');
  await expect(playground.trace).toContainText('scheduled');
  await expect(playground.trace).toContainText(SECOND_OUTPUT);
  // Time for anything the escape scheduled to fire and arrive (the sink is checked after the test).
  await page.waitForTimeout(1_500);
  expect(inspector.violations()).toEqual([]);
  await inspector.detach();
});
