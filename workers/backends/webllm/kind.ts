// Models run in this browser tab on WebGPU by web-llm, each in its model worker
// (workers/hosts/models/): no endpoint, no key, $0. The orchestrator worker holds them; a run gets
// one through the host's `localModel`.

import { inBrowserKind } from '../../engine/backendKind.ts';

const IN_BROWSER = 'is not used by a webllm provider (its models run in the browser: no endpoint, no key)';

const WORDS = {
  title: 'a web-llm provider',
  label: 'In this browser (web-llm)',
  setupNote: 'Models of this provider run on this browser’s GPU: load them under “Models in this browser”.',
  // The name the examples give it, under which your converted weights are listed.
  providerName: 'local',
  engine: 'web-llm on WebGPU',
  family: 'web-llm',
};

export const webLlmKind = inBrowserKind('webllm', WORDS, {
  unusedFields: { baseUrl: IN_BROWSER, apiKeyEnv: IN_BROWSER },
  needsPromptToolMode: 'a web-llm orchestrator needs toolMode "prompt" (web-llm takes no tools for Qwen3)',
});
