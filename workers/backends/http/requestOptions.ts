// What every HTTP backend takes from its provider entry: the timeouts and retries the config sets,
// the key and the host's fetch.

import type { ModelRequest } from '../../engine/backendKind.ts';

export function httpOptions(request: ModelRequest) {
  const { provider } = request;
  return {
    model: request.model,
    apiKey: request.apiKey,
    timeoutMs: provider.timeoutSeconds * 1000,
    idleTimeoutMs: provider.idleTimeoutSeconds * 1000,
    maxRetries: provider.maxRetries,
    fetch: request.fetch,
  };
}
