// History's "Run again" on runs from an imported file (issue 23's domains): the run file is
// untrusted, and a run's `run_started.domain` is what the fork plays in. A name no domain has
// (an object's own words, a path, an address) is refused by name, with nothing started and nothing
// fetched; a name longer than any domain's is refused when the file is read.

import { syntheticRun } from '../fixtures/syntheticRun.ts';
import { openSideTab } from '../support/playground.ts';
import { expect, test } from './fixtures.ts';
import { runFileText } from './hostileFiles.ts';

test('runs that say they played in a domain no playground has are refused by name: nothing runs, nothing is fetched', async ({ page, playground, sink }) => {
  test.setTimeout(120_000);
  const names = ['__proto__', 'constructor', 'toString', '../../x', `${sink.url}/domain`, '<img src=x onerror="fetch(1)">'];
  const inDomain = (id: string, index: number, domain: string) =>
    syntheticRun(id, index, 2).map((event) => (event.type === 'run_started' ? { ...event, domain } : event));
  const runs = names.map((domain, index) => ({ id: `domain-${index}`, events: inDomain(`domain-${index}`, index + 1, domain) }));
  // A megabyte of name: no domain's is longer than a few dozen characters.
  runs.push({ id: 'domain-huge', events: inDomain('domain-huge', 99, `tau2-retail${'x'.repeat(1 << 20)}`) });

  await playground.open();
  const panel = await openSideTab(page, 'History');
  await panel.getByTestId('history-import-input').setInputFiles({ name: 'domains.json', mimeType: 'application/json', buffer: Buffer.from(runFileText(runs)) });
  const notice = panel.getByRole('status').or(panel.getByRole('alert'));
  await expect(notice).toContainText(`Imported ${names.length} runs from "domains.json"`);
  await expect(notice).toContainText('Left out: runs[6].events[0].domain');
  const rows = panel.getByRole('list', { name: 'Stored runs' }).getByRole('article');
  await expect(rows).toHaveCount(names.length);

  const banner = page.getByTestId('stored-run-banner');
  for (const [index, domain] of names.entries()) {
    await openSideTab(page, 'History');
    await rows.filter({ hasText: `Question ${index + 1}:` }).getByRole('button', { name: 'Open' }).click();
    await expect(banner).toContainText(`It plays in the same domain, "${domain}".`);
    page.once('dialog', (dialog) => void dialog.accept());
    await banner.getByRole('button', { name: 'Run again' }).click();
    await expect(banner.getByRole('alert')).toHaveText(`This run played in the domain "${domain}", which this playground does not have (its Domain list offers the built-in, τ²-Bench and ToolScale domains): it cannot run again without that domain.`);
    await expect(banner.getByRole('alert').locator('img')).toHaveCount(0);
  }
  // Nothing started: the Task tab's status is the playground's first.
  await playground.openTab('Task');
  await expect(playground.runStatus).not.toContainText('Running');
});
