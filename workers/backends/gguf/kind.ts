// GGUF models run in this browser tab by llama.cpp (wllama), on WebGPU or the CPU, in the GGUF
// model worker (workers/hosts/models/): no endpoint, no key, $0. The tools go into the prompt.

import { inBrowserKind } from '../../engine/backendKind.ts';

const IN_BROWSER = 'is not used by a gguf provider (its models run in the browser: no endpoint, no key)';
const MODELS = 'is only for a webllm provider (a gguf provider runs the GGUF models loaded in Models in this browser)';

const WORDS = {
  title: 'a GGUF provider',
  label: 'In this browser (GGUF, llama.cpp)',
  setupNote: 'Models of this provider run in this browser by llama.cpp: load a GGUF file under “Models in this browser”.',
  providerName: 'gguf',
  engine: 'llama.cpp',
  family: 'GGUF',
};

export const ggufKind = inBrowserKind('gguf', WORDS, {
  unusedFields: { baseUrl: IN_BROWSER, apiKeyEnv: IN_BROWSER, models: MODELS },
  needsPromptToolMode: 'a GGUF orchestrator needs toolMode "prompt" (the tools are rendered into its prompt and its calls read from its text)',
});
