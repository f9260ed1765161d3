// Anthropic's Messages API over HTTP with SSE, from the browser and the CLI. Its orchestrator
// takes the tools in its prompt: the API's tool use is not Qwen3's.

import type { BackendKind } from '../../engine/backendKind.ts';
import { ANTHROPIC_BROWSER_HEADERS, ANTHROPIC_DEFAULT_BASE_URL, anthropicOrigin } from './baseUrl.ts';

const IN_BROWSER_ONLY = 'is only for a provider of models in the browser (webllm, gguf)';

export const anthropicKind: BackendKind = {
  kind: 'anthropic', title: 'an Anthropic provider', label: 'Anthropic', runsIn: 'both', onDevice: false,
  needs: {
    apiKey: true,
    defaultBaseUrl: ANTHROPIC_DEFAULT_BASE_URL,
    exampleBaseUrl: `${ANTHROPIC_DEFAULT_BASE_URL}/v1`,
    connects: 'base-url',
    // With the headers the real calls send, so the browser's CORS check is the same one.
    probe: (baseUrl) => ({ url: `${anthropicOrigin(baseUrl)}/v1/models`, headers: ANTHROPIC_BROWSER_HEADERS }),
  },
  unusedFields: { contextWindow: IN_BROWSER_ONLY, constrainToolCalls: IN_BROWSER_ONLY, models: 'is only for a webllm provider' },
  needsPromptToolMode: 'an Anthropic orchestrator needs toolMode "prompt"',
  load: () => import('./models.ts').then((module) => module.anthropicModels),
};
