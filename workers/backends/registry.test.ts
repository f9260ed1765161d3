// A backend kind is one folder and one registry line: the test-only kind in testing/ is listed here
// beside the real ones, and a config names it, is checked by its rules and gets its models, and
// the page's Setup shows it from its descriptor, as with any kind.

import { describe, expect, it } from 'vitest';
import { createConfigSchema, parseConfigWith } from '../engine/config.ts';
import { TOOL_NAMES } from '../../tools/registry.ts';
import { parseConfig } from '../hosts/config.ts';
import { createModel } from '../hosts/prepareRun.ts';
import { BACKEND_KINDS, backendKind, loadBackends } from './registry.ts';
import { echoKind } from './testing/kind.ts';
import { configProblems } from '../../e2e/fixtures/configProblems.ts';
import { endpointOf, keyedProviders, kindChoices } from '../../app/components/Setup/providerKinds.ts';

const KINDS = [...BACKEND_KINDS, echoKind];
const schema = createConfigSchema({ providerKinds: KINDS, tools: TOOL_NAMES });

const echoConfig = (provider: Record<string, unknown> = {}, toolMode = 'prompt') => ({
  providers: { e: { kind: 'echo', ...provider } },
  orchestrator: { provider: 'e', model: 'parrot', toolMode },
  experts: {
    searcher: { tool: 'search', provider: 'e', model: 'parrot' },
    reasoner: { tool: 'enhance_reasoning', provider: 'e', model: 'parrot' },
    answerer: { tool: 'answer', provider: 'e', model: 'parrot' },
  },
});

const problems = configProblems;

describe('the backend registry', () => {
  it('lists every kind once, in the order the schema names them', () => {
    expect(BACKEND_KINDS.map((kind) => kind.kind)).toEqual(['openai-compatible', 'anthropic', 'webllm', 'gguf', 'demo']);
    expect(backendKind('anthropic')?.needs).toEqual({
      apiKey: true,
      defaultBaseUrl: 'https://api.anthropic.com',
      exampleBaseUrl: 'https://api.anthropic.com/v1',
      connects: 'base-url',
      probe: expect.any(Function),
    });
    expect(backendKind('echo')).toBeUndefined();
  });

  it('has every kind say what the page shows for it: a label, and a base URL example or a note', () => {
    for (const kind of KINDS) {
      expect(kind.label, kind.kind).toMatch(/\S/);
      if (kind.needs.connects === 'base-url') expect(new URL(kind.needs.exampleBaseUrl ?? '').protocol, kind.kind).toMatch(/^https?:$/);
      else expect(kind.setupNote, kind.kind).toMatch(/\S/);
      // A kind whose models run here is given a provider by Models, under this name.
      if (kind.runsIn === 'browser') expect(kind.providerName, kind.kind).toMatch(/^[a-z][a-z0-9-]*$/);
    }
  });

  it('takes a kind added as a folder and a line into Setup: its label, no key, its note for an endpoint', () => {
    const providers = { e: { kind: 'echo' }, o: { kind: 'openai-compatible' } };
    expect(kindChoices(KINDS).at(-1)).toEqual({ value: 'echo', label: 'Echo (test only)' });
    expect(keyedProviders(providers, KINDS)).toEqual(['o']);
    expect(endpointOf(providers.e, KINDS)).toEqual({ field: false, note: echoKind.setupNote });
    // Without its registry line the page knows nothing of it.
    expect(kindChoices().map((choice) => choice.value)).not.toContain('echo');
    expect(endpointOf(providers.e)).toEqual({ field: false, note: undefined });
  });

  it('takes a kind added as a folder and a line: the config names it, its rules hold, its models answer', async () => {
    expect(problems(() => parseConfig(echoConfig()))[0]).toMatch(/^providers\.e\.kind: /);
    const config = parseConfigWith(schema, echoConfig());
    expect(problems(() => parseConfigWith(schema, echoConfig({ baseUrl: 'http://127.0.0.1:1/v1' }), ))).toEqual([
      'providers.e.baseUrl: is not used by an echo provider (it answers from the request itself)',
    ]);
    expect(problems(() => parseConfigWith(schema, echoConfig({}, 'server')))).toEqual([
      'orchestrator.toolMode: an echo orchestrator needs toolMode "prompt" (it takes no tools)',
    ]);

    const environment = {
      apiKey: () => {
        throw new Error('an echo provider needs no key');
      },
      backends: await loadBackends(['echo'], KINDS),
      retriever: { search: async () => [] },
      python: { run: () => Promise.reject(new Error('no Python here')), dispose: async () => undefined },
    };
    const model = createModel(config, environment, 'e', 'parrot');
    const reply = await model.complete({ messages: [{ role: 'user', content: 'Polly wants a cracker' }] });
    expect(reply.content).toBe('Polly wants a cracker');
    // Without its registry line, a host has no such backend to load.
    expect((await loadBackends(['echo'])).size).toBe(0);
  });
});
