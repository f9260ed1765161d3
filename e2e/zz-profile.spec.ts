import { writeFileSync } from 'node:fs';
import { scriptedConfig } from './support/playground.ts';
import { expect, test } from './security/fixtures.ts';

const ORCHESTRATOR = 'nvidia/Nemotron-Orchestrator-8B';
const usage = { prompt_tokens: 400, completion_tokens: 30 };
const call = (expression: string) => `<tool_call>\n${JSON.stringify({ name: 'calculator', arguments: { expression } })}\n</tool_call>`;

test('profile', async ({ page, playground, scripted, sink: _s }) => {
  test.setTimeout(120_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  const server = await scripted.start({
    models: {
      [ORCHESTRATOR]: [
        { when: '<tool_response>', repeat: true, content: '<message>Done.</message>', usage },
        { content: `<think>Let the calculator do it.</think>\n${call('6*7')}`, usage },
      ],
    },
  });
  await playground.open();
  await playground.importConfig({ ...scriptedConfig(server.url), protocol: 'function-calling', experts: {}, functionCalling: { system: 'You compute.', tools: ['calculator'] }, limits: { maxTurns: 5 } });
  await playground.run('Compute this.');
  await playground.waitForFinish(60_000);
  await expect(playground.runStatus).toContainText('Answered');
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync('/tmp/profile.cpuprofile', JSON.stringify(profile));
});
