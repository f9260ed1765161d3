// The prompted local Qwen3 policy in the Evaluate tab: unavailable (and saying why) until a model is
// loaded in this browser; then offered with the loaded models listed. The tiny Qwen3 GGUF with
// random weights (e2e/fixtures/tinyGguf.ts, written at test time) is loaded through the Models
// panel and runs as the orchestrator of two corpus tasks in real llama.cpp, the experts on the
// scripted server. Random weights answer wrongly: what is checked is that every rollout completes
// and is scored, at $0 for the local model.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusEvalScenario, evalSuiteJsonl } from './fixtures/evalScenario.ts';
import { startStaticSite, type StaticSite } from './fixtures/staticSite.ts';
import { writeTinyGguf } from './fixtures/tinyGguf.ts';
import { expect, openSideTab, scriptedConfig, test } from './support/playground.ts';

// A GGUF load and a few constrained turns of llama.cpp on the CPU of a loaded two-core box.
test.describe.configure({ timeout: 240_000 });

let folder: string;
let site: StaticSite;
let modelUrl: string;

test.beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tiny-gguf-'));
  await writeTinyGguf(folder);
  // Another origin, as a model host is (see gguf.spec.ts).
  site = await startStaticSite(folder, { headers: { 'access-control-allow-origin': '*' } });
  modelUrl = `${site.url}/tiny-qwen3.gguf`;
});

test.afterAll(async () => {
  await site?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

test('Prompted Qwen3 (local): unavailable until a model is loaded, then runs two tasks with the tiny GGUF in llama.cpp, each scored', async ({ playground, page, scripted }) => {
  const scenario = corpusEvalScenario();
  // Whatever the random orchestrator picks ends without Python: the searcher writes a query, the
  // reasoner no code, the answerers answer.
  scenario.models['scripted/searcher'] = [{ content: 'capital city', repeat: true, usage: { prompt_tokens: 100, completion_tokens: 3 } }];
  scenario.models['scripted/coder'] = [{ content: 'No code is needed here.', repeat: true, usage: { prompt_tokens: 100, completion_tokens: 6 } }];
  const server = await scripted.start(scenario);
  await playground.open();
  // The config's own gguf provider, whose replies are constrained to one call of an offered tool:
  // what makes random weights call tools (gguf.spec.ts). Few turns, short replies.
  const base = scriptedConfig(server.url) as { providers: Record<string, unknown>; orchestrator: Record<string, unknown> };
  await playground.importConfig({
    ...base,
    providers: { ...base.providers, tab: { kind: 'gguf', constrainToolCalls: true } },
    orchestrator: { ...base.orchestrator, maxTokens: 200 },
    limits: { maxTurns: 3 },
  });

  let panel = await openSideTab(page, 'Evaluate');
  const qwen3 = panel.getByRole('checkbox', { name: /^Prompted Qwen3 \(local\)/ });
  await expect(qwen3).toBeDisabled();
  await expect(qwen3).toHaveAccessibleDescription(/^Unavailable: no local model is loaded in this browser\./);

  const models = await openSideTab(page, 'Models');
  const section = models.locator('section.gguf-models');
  await section.getByLabel(/URL or Hugging Face/).fill(modelUrl);
  await section.getByRole('button', { name: 'Load from this address' }).click();
  await section.getByRole('dialog', { name: 'Confirm the download' }).getByRole('button', { name: 'Download and load' }).click();
  await expect(section.getByRole('list', { name: 'GGUF models loaded' }).getByRole('listitem')).toContainText('tiny-qwen3.gguf', { timeout: 60_000 });

  panel = await openSideTab(page, 'Evaluate');
  await expect(qwen3).toBeEnabled();
  await qwen3.check();
  await expect(panel.getByRole('combobox', { name: 'Local model' })).toHaveText('tiny-qwen3.gguf (GGUF, llama.cpp)');
  await panel.getByRole('checkbox', { name: /^Orchestrator/ }).uncheck();
  await panel.getByRole('checkbox', { name: /^Strongest expert alone/ }).uncheck();
  await panel.getByRole('checkbox', { name: /^Cheapest expert alone/ }).uncheck();
  await panel.getByRole('spinbutton', { name: 'Concurrency' }).fill('1');
  const twoTasks = evalSuiteJsonl().split('\n').slice(0, 2).join('\n');
  await panel.getByLabel('Suite file to import').setInputFiles({ name: 'two.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(twoTasks) });
  await expect(panel.getByLabel('Suite contents')).toContainText('2 tasks');

  await panel.getByRole('button', { name: 'Run evaluation' }).click();
  await expect(panel.getByRole('status', { name: 'Evaluation notice' })).toContainText('Done: 2 rollouts run.', { timeout: 150_000 });
  // The policy as the CLI spells it, under the config's gguf provider: both rollouts graded.
  const row = panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('table', { name: 'Results per policy' }).locator('tr[data-policy="qwen3=tab/tiny-qwen3.gguf"]');
  await expect(row.locator('td').first()).toHaveText(/^[0-2]\/2$/);
  await panel.page().getByRole('region', { name: 'Evaluation results' }).getByText('Every rollout (2)').click();
  const rollouts = panel.page().getByRole('region', { name: 'Evaluation results' }).getByRole('list', { name: 'Rollouts' }).getByRole('listitem');
  await expect(rollouts).toHaveCount(2);
  for (const rollout of await rollouts.all()) await expect(rollout).toContainText(/exact: /);
  // The local model's calls reached the scripted server only as the experts it chose.
  for (const request of server.requests.filter((r) => r.method === 'POST')) {
    expect(JSON.stringify(request.body)).not.toContain('tiny-qwen3');
  }
});
