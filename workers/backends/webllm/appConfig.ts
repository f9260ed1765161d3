// The AppConfig handed to web-llm. This module imports web-llm itself (its prebuilt model
// list), so it belongs where the engine runs: the worker, or the page that creates the engine.

import { prebuiltAppConfig, type AppConfig } from '@mlc-ai/web-llm';
import type { LocalModel } from './catalogue.ts';

export type CacheBackend = NonNullable<AppConfig['cacheBackend']>;

/** Our records first (web-llm takes the first record with a matching id, and ours add
 * `required_features`), then every other prebuilt record, so any prebuilt id still loads.
 * The result is plain data: it can cross postMessage to a worker engine. */
export function buildAppConfig(models: readonly LocalModel[], options: { cacheBackend?: CacheBackend } = {}): AppConfig {
  const ids = new Set(models.map((model) => model.id));
  const duplicate = models.find((model, index) => models.findIndex((other) => other.id === model.id) !== index);
  if (duplicate) throw new Error(`Two models share the id "${duplicate.id}": each needs its own.`);
  return {
    model_list: [...models.map((model) => model.record), ...prebuiltAppConfig.model_list.filter((record) => !ids.has(record.model_id))],
    cacheBackend: options.cacheBackend ?? prebuiltAppConfig.cacheBackend ?? 'cache',
  };
}
