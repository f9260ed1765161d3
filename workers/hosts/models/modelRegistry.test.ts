import { describe, expect, it } from 'vitest';
import { BackendError } from '../../engine/errors.ts';
import type { LocalModelsState } from './modelState.ts';
import { createModelRegistry, type LoadOutcome } from './modelRegistry.ts';

// The lifecycle web-llm's and GGUF's models share, on its own: loads that finish, fail, are
// cancelled or unloaded midway, and what a run is told about a model that is not ready.

const OUTCOME: LoadOutcome = { contextWindow: 4096, fromCache: false, seconds: 1 };

/** A load that waits until the test settles it, or until it is aborted. */
function pendingLoad() {
  let settle!: { resolve(outcome: LoadOutcome): void; reject(error: unknown): void };
  let signal: AbortSignal | undefined;
  const run = (_entry: unknown, given: AbortSignal) =>
    new Promise<LoadOutcome>((resolve, reject) => {
      signal = given;
      settle = { resolve, reject };
      given.addEventListener('abort', () => reject(new BackendError({ code: 'aborted', message: 'The load was cancelled.', provider: 'test' })));
    });
  return { run, settle: () => settle, signal: () => signal };
}

function setup() {
  const states: LocalModelsState[] = [];
  const released: string[] = [];
  const registry = createModelRegistry<string>((state) => states.push(state));
  const release = (id: string) => () => released.push(id);
  return { registry, states, released, release };
}

describe('the model registry', () => {
  it('shows a model loading, then loaded, and hands its entry to a run', async () => {
    const { registry, states, release } = setup();
    const load = pendingLoad();
    const done = registry.load({ id: 'm', label: 'Model M', engine: 'engine-m' }, release('m'), load.run);
    expect(states.at(-1)).toEqual({ loaded: [], loading: ['m'] });
    expect(() => registry.ready('m', () => 'not here')).toThrow('Model M is still loading: wait for it to finish, then run again.');
    load.settle().resolve(OUTCOME);
    await done;
    expect(states.at(-1)).toEqual({ loaded: [{ id: 'm', label: 'Model M', ...OUTCOME }], loading: [] });
    expect(registry.ready('m', () => 'not here')).toMatchObject({ engine: 'engine-m', loaded: { contextWindow: 4096 } });
    expect(() => registry.ready('other', () => 'Load it first.')).toThrow('Load it first.');
  });

  it('refuses a second load of the same id and lets its worker go', async () => {
    const { registry, states, released, release } = setup();
    const first = registry.load({ id: 'm', label: 'Model M', engine: 'a' }, release('first'), () => Promise.resolve(OUTCOME));
    await registry.load({ id: 'm', label: 'Model M', engine: 'b' }, release('second'), () => Promise.resolve(OUTCOME));
    await first;
    expect(released).toEqual(['second']);
    expect(states.find((state) => state.failure)?.failure).toEqual({ modelId: 'm', code: 'bad_request', message: 'Model M is already loaded or loading: unload it first.' });
    expect(registry.state).toEqual({ loaded: [{ id: 'm', label: 'Model M', ...OUTCOME }], loading: [] });
  });

  it('a failed load is gone, says why, and frees its worker', async () => {
    const { registry, released, release } = setup();
    await registry.load({ id: 'm', label: 'Model M' }, release('m'), () => Promise.reject(new BackendError({ code: 'out_of_memory', message: 'Not enough GPU memory.', provider: 'test' })));
    expect(registry.has('m')).toBe(false);
    expect(released).toEqual(['m']);
    expect(registry.state.failure).toMatchObject({ modelId: 'm', code: 'out_of_memory' });
  });

  it('cancel and unload during a load abort it, with no failure shown', async () => {
    for (const stop of ['cancel', 'unload'] as const) {
      const { registry, released, release } = setup();
      const load = pendingLoad();
      const done = registry.load({ id: 'm', label: 'Model M' }, release('m'), load.run);
      registry[stop]('m');
      await done;
      expect(load.signal()?.aborted).toBe(true);
      expect(registry.state).toEqual({ loaded: [], loading: [] });
      expect(released).toEqual(['m']);
    }
  });

  it('unloading a loaded model frees its worker, and the id can be loaded again', async () => {
    const { registry, released, release } = setup();
    await registry.load({ id: 'm', label: 'Model M' }, release('m'), () => Promise.resolve(OUTCOME));
    registry.unload('m');
    expect(registry.state).toEqual({ loaded: [], loading: [] });
    expect(released).toEqual(['m']);
    await registry.load({ id: 'm', label: 'Model M' }, release('m again'), () => Promise.resolve(OUTCOME));
    expect(registry.state.loaded.map((model) => model.id)).toEqual(['m']);
  });

  it('fail with drop gives up a loaded model and says why; without drop it only reports', async () => {
    const { registry, released, release } = setup();
    await registry.load({ id: 'm', label: 'Model M' }, release('m'), () => Promise.resolve(OUTCOME));
    registry.fail({ modelId: 'x', code: 'bad_request', message: 'not in the catalogue' });
    expect(registry.state).toMatchObject({ loaded: [{ id: 'm' }], failure: { modelId: 'x' } });
    registry.fail({ modelId: 'm', code: 'webgpu', message: 'The GPU was lost.' }, { drop: true });
    expect(registry.state).toEqual({ loaded: [], loading: [], failure: { modelId: 'm', code: 'webgpu', message: 'The GPU was lost.' } });
    expect(released).toEqual(['m']);
  });
});
