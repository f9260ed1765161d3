import { describe, expect, it } from 'vitest';
import { describeWebGpu, probeWebGpu } from './probeWebGpu.ts';

// The real adapters are checked in e2e/smoke.spec.ts; here, the branches a test browser cannot reach.
function gpuAnswering(requestAdapter: () => Promise<GPUAdapter | null>): GPU {
  return { requestAdapter } as unknown as GPU;
}

function adapterWith(info: Partial<GPUAdapterInfo>, features: string[]): GPUAdapter {
  return { info, features: new Set(features) } as unknown as GPUAdapter;
}

describe('probeWebGpu', () => {
  it('reports a browser without navigator.gpu', async () => {
    expect(await probeWebGpu(undefined)).toEqual({ kind: 'no-api' });
  });

  it('reports a failed adapter request with its message', async () => {
    const gpu = gpuAnswering(() => Promise.reject(new Error('GPU process crashed')));
    expect(await probeWebGpu(gpu)).toEqual({ kind: 'failed', message: 'GPU process crashed' });
  });

  it('reads a hardware adapter with shader-f16', async () => {
    const adapter = adapterWith(
      { vendor: 'nvidia', architecture: 'hopper', description: 'H200', isFallbackAdapter: false },
      ['shader-f16', 'timestamp-query'],
    );
    const probe = await probeWebGpu(gpuAnswering(() => Promise.resolve(adapter)));
    expect(probe).toEqual({
      kind: 'adapter',
      vendor: 'nvidia',
      architecture: 'hopper',
      description: 'H200',
      isFallbackAdapter: false,
      hasShaderF16: true,
    });
    expect(describeWebGpu(probe)).toEqual([
      'WebGPU is available.',
      'Adapter vendor: nvidia; architecture: hopper; description: H200.',
      'This is a hardware adapter.',
      'shader-f16: supported, so q4f16 models can run.',
    ]);
  });

  it('treats a missing isFallbackAdapter (older Chromium) as a hardware adapter', async () => {
    const adapter = adapterWith({ vendor: '', architecture: '', description: '' }, []);
    const probe = await probeWebGpu(gpuAnswering(() => Promise.resolve(adapter)));
    expect(probe).toMatchObject({ kind: 'adapter', isFallbackAdapter: false, hasShaderF16: false });
    expect(describeWebGpu(probe)[1]).toBe('Adapter vendor: unknown; architecture: unknown.');
  });
});
