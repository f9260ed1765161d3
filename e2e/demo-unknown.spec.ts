// A question the scripted demo cannot answer (issue 24, item 3): it reads only the built-in sample
// questions, so the run does not end green as "Answered · unknown"; it says why and offers a sample.

import { expect, test } from './support/playground.ts';

test.describe.configure({ timeout: 150_000 });

test('the demo asked something else says it reads only the sample questions, and offers one', async ({ page, playground }) => {
  await playground.open();
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await playground.waitForFinish(120_000);
  await expect(playground.runStatus).toContainText('Answered');

  await playground.run('Who wrote Hamlet?');
  await playground.waitForFinish(60_000);
  await expect(playground.runStatus).toContainText('The demo could not answer this');
  await expect(playground.runStatus).toContainText('reads only the built-in sample questions');
  await expect(playground.runStatus).not.toContainText('Answered');
  await expect(page.locator('.run-status')).not.toHaveClass(/run-status-success/);

  const samples = (await (await page.request.get('/generated/sample-tasks.json')).json()) as Array<{ question: string }>;
  await playground.runStatus.getByRole('button', { name: 'Use a sample question' }).click();
  await expect(playground.task).toHaveValue(samples[0]!.question);
});
