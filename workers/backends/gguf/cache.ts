// The GGUF files wllama keeps in this browser: its CacheManager, in the origin's private file
// system (OPFS), where the GGUF model worker's downloads land. The Models panel lists them by
// model (a split model's parts together, as wllama's ModelManager groups them) and deletes them.
// Listing and deleting read and remove files only; no llama.cpp starts, so this runs on the page.

import { ModelManager } from '@wllama/wllama';
import { ggufFileName } from './catalogue.ts';

export interface CachedGguf {
  /** The address it was downloaded from (a split model's first part), wllama's key for it. */
  url: string;
  /** The file name in that address. */
  name: string;
  /** Bytes kept, every part together. */
  bytes: number;
  /** How many files (parts of a split model). */
  files: number;
}

const manager = () => new ModelManager({ allowOffline: true });

/** The complete models in the cache, largest first (an interrupted download is not a model). */
export async function listCachedGguf(): Promise<CachedGguf[]> {
  const models = await manager().getModels();
  return models
    .map((model) => ({ url: model.url, name: ggufFileName(model.url), bytes: model.size, files: model.files.length }))
    .sort((a, b) => b.bytes - a.bytes || a.url.localeCompare(b.url));
}

/** Removes every file of the model downloaded from `url`; a model not in the cache is no error. */
export async function deleteCachedGguf(url: string): Promise<void> {
  const models = await manager().getModels({ includeInvalid: true });
  await Promise.all(models.filter((model) => model.url === url).map((model) => model.remove()));
}
