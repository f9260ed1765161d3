// GGUF files and addresses a person hands the Models panel (docs/security.md, "Files you open"):
// a file is called loaded only once its header is checked — the magic, the version, the counts,
// an architecture, a vocabulary, every tensor's data inside the file — and anything else gets a
// clear error naming what is wrong. An address is checked from its first bytes, before anything is
// downloaded or kept. Real files: the tiny Qwen3 GGUF (e2e/fixtures/tinyGguf.ts), broken.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { startStaticSite, type StaticSite } from '../fixtures/staticSite.ts';
import { tinyQwen3Gguf } from '../fixtures/tinyGguf.ts';
import { openSideTab } from '../support/playground.ts';
import { bait } from './hostileFiles.ts';
import { expect, test } from './fixtures.ts';

test.describe.configure({ timeout: 120_000 });

/** The tiny model with its bytes changed at `offset`: a u32 or a u64, little-endian. */
function patched(bytes: Buffer, offset: number, value: bigint, width: 4 | 8): Buffer {
  const copy = Buffer.from(bytes);
  if (width === 4) copy.writeUInt32LE(Number(value), offset);
  else copy.writeBigUInt64LE(value, offset);
  return copy;
}

const good = tinyQwen3Gguf();
/** Offsets in the header: magic 0, version 4, tensor count 8, key count 16. */
const BROKEN: Array<{ name: string; bytes: (sinkUrl: string) => Buffer; says: RegExp }> = [
  { name: 'web-page.gguf', bytes: (sinkUrl) => Buffer.from(`<!doctype html><html><head><title>model.gguf · Hugging Face</title></head><body>${bait(sinkUrl, 'gguf-page')}</body></html>`), says: /not a GGUF file: it is an HTML page/ },
  { name: 'other-magic.gguf', bytes: () => Buffer.concat([Buffer.from('GGML'), good.subarray(4)]), says: /not a GGUF file \(it does not start with "GGUF"\)/ },
  { name: 'version-1.gguf', bytes: () => patched(good, 4, 1n, 4), says: /GGUF version 1 is not read here/ },
  { name: 'version-99.gguf', bytes: () => patched(good, 4, 99n, 4), says: /GGUF version 99 is not read here/ },
  { name: 'huge-key-count.gguf', bytes: () => patched(good, 16, 2n ** 60n, 8), says: /claims 1,152,921,504,606,846,976 metadata keys/ },
  { name: 'huge-tensor-count.gguf', bytes: () => patched(good, 8, 2n ** 60n, 8), says: /claims 1,152,921,504,606,846,976 tensors/ },
  { name: 'no-architecture.gguf', bytes: () => tinyQwen3Gguf({ omitKeys: ['general.architecture'] }), says: /names no architecture \(general\.architecture\)/ },
  { name: 'no-vocabulary.gguf', bytes: () => tinyQwen3Gguf({ omitKeys: ['tokenizer.ggml.tokens'] }), says: /has no vocabulary \(tokenizer\.ggml\.tokens\)/ },
  { name: 'cut-short.gguf', bytes: () => good.subarray(0, good.length - 4096), says: /data ends past the end of the file/ },
];

async function ggufSection(page: Page): Promise<Locator> {
  await openSideTab(page, 'Models');
  return page.locator('section.gguf-models');
}

let folder: string;
let site: StaticSite;

test.beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'hostile-gguf-'));
  await writeFile(join(folder, 'tiny-qwen3.gguf'), good);
  site = await startStaticSite(folder, { headers: { 'access-control-allow-origin': '*' } });
});

test.afterAll(async () => {
  await site?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Writes the broken files (the web page's markup aimed at the sink) where the site serves them. */
async function writeBroken(sinkUrl: string): Promise<void> {
  for (const broken of BROKEN) await writeFile(join(folder, broken.name), broken.bytes(sinkUrl));
}

test('a GGUF file from disk is checked before it is called loaded: each broken one says what is wrong, the real one loads', async ({ page, sink }) => {
  await writeBroken(sink.url);
  await page.goto('/');
  const section = await ggufSection(page);
  const input = section.getByLabel(/Or a file on this computer/);
  const loaded = section.getByRole('list', { name: 'GGUF models loaded' }).getByRole('listitem');
  for (const broken of BROKEN) {
    await input.setInputFiles(join(folder, broken.name));
    await expect(section.getByRole('alert'), broken.name).toContainText(broken.says, { timeout: 30_000 });
    await expect(loaded).toHaveCount(0);
  }
  // The checks pass a real model: it loads, with its context window.
  await input.setInputFiles(join(folder, 'tiny-qwen3.gguf'));
  await expect(loaded).toContainText(/^tiny-qwen3\.gguf · [\d,]+ tokens · /, { timeout: 60_000 });
});

test('a GGUF address is checked from its first bytes: a web page or a forged header is refused before anything is downloaded or kept', async ({ page, sink }) => {
  await writeBroken(sink.url);
  await page.goto('/');
  const section = await ggufSection(page);
  const loaded = section.getByRole('list', { name: 'GGUF models loaded' }).getByRole('listitem');
  const kept = section.getByRole('list', { name: 'Kept in this browser' }).getByRole('listitem');
  for (const broken of BROKEN.filter((file) => ['web-page.gguf', 'huge-key-count.gguf', 'cut-short.gguf'].includes(file.name))) {
    await section.getByLabel(/URL or Hugging Face/).fill(`${site.url}/${broken.name}`);
    await section.getByRole('button', { name: 'Load from this address' }).click();
    await section.getByRole('dialog', { name: 'Confirm the download' }).getByRole('button', { name: 'Download and load' }).click();
    await expect(section.getByRole('alert'), broken.name).toContainText(broken.says, { timeout: 30_000 });
    await expect(loaded).toHaveCount(0);
  }
  await expect(kept).toHaveCount(0);
});
