// Setup asks each provider's backend kind what to show: a key field only for a kind that sends a
// key, a base URL field only for a kind that connects to one. A gguf provider (llama.cpp in this
// tab) was once offered a key and a base URL, as no kind but webllm and demo were told apart.

import { describe, expect, it } from 'vitest';
import { BACKEND_KINDS } from '../../../workers/backends/registry.ts';
import { parseConfig } from '../../../workers/hosts/config.ts';
import { EXAMPLE_CONFIG } from '../../state/setupStore.ts';
import { addProvider } from './draftEdits.ts';
import { endpointOf, freshProvider, keyedProviders, kindChoices } from './providerKinds.ts';

const PROVIDERS = {
  tab: { kind: 'gguf' },
  local: { kind: 'webllm' },
  demo: { kind: 'demo' },
  claude: { kind: 'anthropic' },
  vllm: { kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1' },
  odd: { kind: 'no-such-kind' },
};

describe('what Setup shows for a provider, from its kind', () => {
  it('asks a key only for the kinds that send one', () => {
    expect(keyedProviders(PROVIDERS)).toEqual(['claude', 'vllm']);
  });

  it('shows a base URL field only for the kinds that connect to one, else the kind’s note', () => {
    expect(endpointOf(PROVIDERS.vllm)).toEqual({ field: true, placeholder: 'http://localhost:8000/v1' });
    expect(endpointOf(PROVIDERS.claude)).toEqual({ field: true, placeholder: 'https://api.anthropic.com/v1 (default)' });
    for (const provider of [PROVIDERS.tab, PROVIDERS.local, PROVIDERS.demo]) {
      expect(endpointOf(provider)).toEqual({ field: false, note: expect.stringMatching(/\S/) });
    }
    expect(endpointOf(PROVIDERS.tab)).toEqual({ field: false, note: expect.stringContaining('llama.cpp') });
    expect(endpointOf(PROVIDERS.odd)).toEqual({ field: false, note: undefined });
  });

  it('offers every kind of the registry, gguf included, by its label', () => {
    expect(kindChoices().map((choice) => choice.value)).toEqual(BACKEND_KINDS.map((kind) => kind.kind));
    expect(kindChoices()).toContainEqual({ value: 'gguf', label: 'In this browser (GGUF, llama.cpp)' });
  });

  it('starts a new provider of each kind so that the config stays valid', () => {
    expect(freshProvider('openai-compatible')).toEqual({ kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1' });
    expect(freshProvider('anthropic')).toEqual({ kind: 'anthropic' });
    for (const { kind } of BACKEND_KINDS) {
      expect(() => parseConfig(addProvider(EXAMPLE_CONFIG, `new-${kind}`, kind))).not.toThrow();
    }
  });
});
