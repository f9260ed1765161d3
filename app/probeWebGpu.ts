// Asks the browser what WebGPU it really offers. The local orchestrator (web-llm) needs an
// adapter, and its q4f16 models also need the `shader-f16` feature.

export type WebGpuProbe =
  | { kind: 'no-api' }
  | { kind: 'no-adapter' }
  | { kind: 'failed'; message: string }
  | {
      kind: 'adapter';
      vendor: string;
      architecture: string;
      description: string;
      isFallbackAdapter: boolean;
      hasShaderF16: boolean;
    };

export async function probeWebGpu(gpu: GPU | undefined): Promise<WebGpuProbe> {
  if (!gpu) return { kind: 'no-api' };
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter();
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  if (!adapter) return { kind: 'no-adapter' };
  const { vendor, architecture, description, isFallbackAdapter } = adapter.info;
  return {
    kind: 'adapter',
    vendor,
    architecture,
    description,
    // Older Chromium builds lack GPUAdapterInfo.isFallbackAdapter.
    isFallbackAdapter: isFallbackAdapter === true,
    hasShaderF16: adapter.features.has('shader-f16'),
  };
}

/** One plain sentence per fact, in the order a reader needs them. */
export function describeWebGpu(probe: WebGpuProbe): string[] {
  switch (probe.kind) {
    case 'no-api':
      return ['WebGPU is not available: this browser has no navigator.gpu.'];
    case 'no-adapter':
      return ['WebGPU is not available: navigator.gpu exists, but requestAdapter() found no adapter.'];
    case 'failed':
      return [`WebGPU is not available: requestAdapter() failed (${probe.message}).`];
    case 'adapter':
      return [
        'WebGPU is available.',
        `Adapter vendor: ${probe.vendor || 'unknown'}; architecture: ${probe.architecture || 'unknown'}${
          probe.description ? `; description: ${probe.description}` : ''
        }.`,
        probe.isFallbackAdapter
          ? 'This is a fallback (software) adapter: models will run, but slowly.'
          : 'This is a hardware adapter.',
        probe.hasShaderF16
          ? 'shader-f16: supported, so q4f16 models can run.'
          : 'shader-f16: not supported, so only q4f32 models can run.',
      ];
  }
}
