// Untrusted sizes are capped (docs/security.md, "Caps"): a hostile OpenAI-compatible server
// streaming 40 MB or 150 MB into a reply, in the real page. The call ends at the reply cap with a
// clear error and the page never stalls.

import type { Scenario } from '../../cli/scripted/scenario.ts';
import { expect, lightConfig, ORCHESTRATOR, test } from './fixtures.ts';
const TASK = 'What is the capital of Finland?';

test.describe('oversized replies', () => {
  for (const [field, megabytes] of [
    ['content', 40],
    ['reasoning', 150],
  ] as const) {
    test(`a ${megabytes} MB streamed ${field} ends at the reply cap; the page stays responsive`, async ({ playground, scripted }) => {
      test.slow();
      const scenario: Scenario = {
        models: {
          [ORCHESTRATOR]: [{ content: 'never reached', fault: { kind: 'flood', field, chars: megabytes * 1_000_000 } }],
        },
      };
      const server = await scripted.start(scenario);
      await playground.open();
      await playground.importConfig(lightConfig(server.url));
      await playground.run(TASK);
      await playground.waitForFinish(60_000);
      await expect(playground.runStatus).toContainText('Stopped by an error');
      await expect(playground.runStatus).toContainText('The response was larger than the playground reads');
      await expect(playground.runStatus).toContainText('passed 1,000,000 characters');
      // The client stopped reading: the server wrote nowhere near the whole flood.
      const [call] = server.requests.filter((request) => request.method === 'POST');
      expect(call!.floodChars).toBeLessThan(megabytes * 500_000);
      // What arrived before the cap is on screen, and the page still answers.
      await expect(playground.steps()).toHaveCount(1);
      await playground.task.fill('Still typing.');
      await expect(playground.task).toHaveValue('Still typing.');
    });
  }
});
