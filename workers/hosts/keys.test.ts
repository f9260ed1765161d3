import { describe, expect, it } from 'vitest';
import { type ProviderConfig } from '../engine/config.ts';
import { parseConfig } from './config.ts';
import { KeyOriginError, KeyRing, providerOrigin } from './keys.ts';
import { prepareRun } from './prepareRun.ts';
import { loadBackends } from '../backends/registry.ts';

const backends = await loadBackends();

const KEY = 'placeholder-key-for-key-ring-tests';

function provider(kind: ProviderConfig['kind'], baseUrl?: string): ProviderConfig {
  return parseConfig({
    providers: { p: { kind, ...(baseUrl ? { baseUrl } : {}) } },
    orchestrator: { provider: 'p', model: 'm', toolMode: 'prompt' },
    experts: {},
    protocol: 'function-calling',
  }).providers.p!;
}

describe('providerOrigin', () => {
  it('is the origin of the base URL, Anthropic’s own by default, and none for web-llm or a broken URL', () => {
    expect(providerOrigin(provider('openai-compatible', 'https://api.openai.com/v1'))).toBe('https://api.openai.com');
    expect(providerOrigin(provider('openai-compatible', 'http://127.0.0.1:8000/v1/'))).toBe('http://127.0.0.1:8000');
    expect(providerOrigin(provider('anthropic'))).toBe('https://api.anthropic.com');
    expect(providerOrigin(provider('anthropic', 'https://proxy.example:8443/v1'))).toBe('https://proxy.example:8443');
    expect(providerOrigin(provider('webllm'))).toBeUndefined();
    expect(providerOrigin({ kind: 'openai-compatible', baseUrl: 'localhost:8000' })).toBeUndefined();
    expect(providerOrigin(undefined)).toBeUndefined();
  });
});

describe('KeyRing', () => {
  const openai = provider('openai-compatible', 'https://api.openai.com/v1');
  const elsewhere = provider('openai-compatible', 'http://127.0.0.1:4999/v1');

  it('hands a key to a run only for the origin it was entered for', () => {
    const ring = new KeyRing();
    ring.set('openai', KEY, 'https://api.openai.com');
    expect(ring.forRun('openai', openai)).toBe(KEY);
    expect(ring.forRun('other', openai)).toBeUndefined();
    expect(() => ring.forRun('openai', elsewhere)).toThrow(KeyOriginError);
    expect(() => ring.forRun('openai', elsewhere)).toThrow(
      'The key for "openai" was entered for https://api.openai.com, and this config sends openai\'s requests to http://127.0.0.1:4999. The key was not sent.',
    );
    expect(ring.held()).toEqual([{ provider: 'openai', origin: 'https://api.openai.com' }]);
    expect(JSON.stringify(ring.held())).not.toContain(KEY);
  });

  it('moves a key to a new origin only from the origin the user was shown', () => {
    const ring = new KeyRing();
    ring.set('openai', KEY, 'https://api.openai.com');
    expect(ring.rebind('openai', 'http://somewhere.else', 'http://127.0.0.1:4999')).toBe(false);
    expect(() => ring.forRun('openai', elsewhere)).toThrow(KeyOriginError);
    expect(ring.rebind('openai', 'https://api.openai.com', 'http://127.0.0.1:4999')).toBe(true);
    expect(ring.forRun('openai', elsewhere)).toBe(KEY);
    expect(() => ring.forRun('openai', openai)).toThrow(KeyOriginError);
    expect(ring.rebind('missing', null, 'http://127.0.0.1:4999')).toBe(false);
  });

  it('holds back a key remembered before keys had an origin, until the user binds it', () => {
    const ring = new KeyRing();
    ring.set('openai', KEY, null);
    expect(() => ring.forRun('openai', openai)).toThrow('remembered on this device before keys were tied to an address');
    ring.rebind('openai', null, 'https://api.openai.com');
    expect(ring.forRun('openai', openai)).toBe(KEY);
  });

  it('makes prepareRun refuse a run that would send a key elsewhere, naming both origins', () => {
    const ring = new KeyRing();
    ring.set('openai', KEY, 'https://api.openai.com');
    const config = parseConfig({
      protocol: 'function-calling',
      providers: { openai: { kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:4999/v1' } },
      orchestrator: { provider: 'openai', model: 'gpt-5-mini' },
      experts: {},
    });
    const environment = {
      apiKey: (name: string, p: ProviderConfig) => ring.forRun(name, p), backends,
      retriever: { search: async () => [] },
      python: { run: () => Promise.reject(new Error('no Python here')), dispose: async () => undefined },
    };
    expect(() => prepareRun(config, environment)).toThrow(/entered for https:\/\/api\.openai\.com.*http:\/\/127\.0\.0\.1:4999/);
  });
});
