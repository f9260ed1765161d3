// An OpenAI-compatible server (vLLM, Ollama, OpenRouter, OpenAI): chat completions over HTTP with
// SSE, from the browser and the CLI, with a key sent to the provider's base URL.

import type { BackendKind } from '../../engine/backendKind.ts';

const IN_BROWSER_ONLY = 'is only for a provider of models in the browser (webllm, gguf)';

export const openAICompatibleKind: BackendKind = {
  kind: 'openai-compatible', title: 'an OpenAI-compatible provider', label: 'OpenAI-compatible', runsIn: 'both', onDevice: false,
  needs: {
    apiKey: true,
    exampleBaseUrl: 'http://localhost:8000/v1',
    connects: 'base-url',
    probe: (baseUrl) => ({ url: `${baseUrl.replace(/\/+$/, '')}/models` }),
  },
  requiredFields: { baseUrl: 'is required for an openai-compatible provider' },
  unusedFields: { contextWindow: IN_BROWSER_ONLY, constrainToolCalls: IN_BROWSER_ONLY, models: 'is only for a webllm provider' },
  load: () => import('./models.ts').then((module) => module.openAICompatibleModels),
};
