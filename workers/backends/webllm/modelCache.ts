// What the browser keeps of a model: whether its weights are cached, deleting them, and how
// much storage the site uses. Works on the page and in a worker. web-llm is imported only when
// a function here is called, so a page that lists models does not load web-llm's bundle.

import type { AppConfig } from '@mlc-ai/web-llm';
import type { CacheBackend } from './appConfig.ts';
import type { LocalModel } from './catalogue.ts';
import { loadWebLlm } from './loadWebLlm.ts';
import { errorText } from './webllmErrors.ts';

export interface CacheOptions {
  /** The engine's `appConfig.cacheBackend` (default "cache", web-llm's own default). */
  cacheBackend?: CacheBackend;
}

/** web-llm looks a model up by id in the app config; the model's own record is all it needs. */
function configFor(model: LocalModel, options: CacheOptions): AppConfig {
  return { model_list: [model.record], cacheBackend: options.cacheBackend ?? 'cache' };
}

/** Whether this context has the storage the backend uses (a Node test, an opaque origin). */
function hasStorage(backend: CacheBackend): boolean {
  switch (backend) {
    case 'cache':
    case 'cross-origin':
      return typeof caches !== 'undefined';
    case 'indexeddb':
      return typeof indexedDB !== 'undefined';
    case 'opfs':
      return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function';
  }
}

/** Whether every weight shard of `model` is in the browser cache (so loading downloads nothing). */
export async function isModelCached(model: LocalModel, options: CacheOptions = {}): Promise<boolean> {
  const config = configFor(model, options);
  if (!hasStorage(config.cacheBackend ?? 'cache')) return false;
  const { hasModelInCache } = await loadWebLlm();
  try {
    return await hasModelInCache(model.id, config);
  } catch (error) {
    throw new Error(`Could not check the browser cache for ${model.label}: ${errorText(error)}`, { cause: error });
  }
}

/** Deletes `model`'s weights, tokenizer, config and model library from the browser cache. */
export async function deleteModelFromCache(model: LocalModel, options: CacheOptions = {}): Promise<void> {
  const config = configFor(model, options);
  if (!hasStorage(config.cacheBackend ?? 'cache')) {
    throw new Error(`This context has no ${config.cacheBackend ?? 'cache'} storage, so nothing of ${model.label} is stored here.`);
  }
  const { deleteModelAllInfoInCache } = await loadWebLlm();
  try {
    await deleteModelAllInfoInCache(model.id, config);
  } catch (error) {
    throw new Error(`Could not delete ${model.label} from the browser cache: ${errorText(error)}`, { cause: error });
  }
}

export interface StorageUse {
  usageBytes: number;
  quotaBytes: number;
  freeBytes: number;
}

/** navigator.storage.estimate(), or undefined where the browser does not tell. */
export async function storageEstimate(): Promise<StorageUse | undefined> {
  const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
  if (typeof storage?.estimate !== 'function') return undefined;
  try {
    const { usage, quota } = await storage.estimate();
    if (typeof usage !== 'number' || typeof quota !== 'number') return undefined;
    return { usageBytes: usage, quotaBytes: quota, freeBytes: Math.max(0, quota - usage) };
  } catch {
    return undefined;
  }
}

function gigabytes(bytes: number): string {
  return `${(bytes / 1e9).toFixed(1)} GB`;
}

export function describeStorage(use: StorageUse): string {
  return `This site stores ${gigabytes(use.usageBytes)} of the ${gigabytes(use.quotaBytes)} the browser allows it (${gigabytes(use.freeBytes)} free).`;
}
