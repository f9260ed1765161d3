import { describe, expect, it } from 'vitest';
import { findLocalModel, QWEN3_MODELS, type LocalModel } from './catalogue.ts';
import { assessWebGpu, modelAvailability, probeWebGpu, type AdapterLimits, type WebGpuProbe } from './capabilities.ts';

function model(id: string): LocalModel {
  const found = findLocalModel(id);
  if (!found) throw new Error(`no model ${id}`);
  return found;
}

const GIB = 1024 ** 3;

// What headless Chromium here reports with --enable-unsafe-webgpu (measured): SwiftShader, a
// fallback adapter without shader-f16, exactly web-llm's minimum of 10 storage buffers.
const SWIFTSHADER_LIMITS: AdapterLimits = {
  maxBufferSize: GIB,
  maxStorageBufferBindingSize: GIB,
  maxComputeWorkgroupStorageSize: 32768,
  maxStorageBuffersPerShaderStage: 10,
};
const SWIFTSHADER_FEATURES = ['bgra8unorm-storage', 'float32-filterable', 'subgroups', 'timestamp-query'];

const swiftshader: WebGpuProbe = {
  kind: 'adapter',
  vendor: 'google',
  architecture: 'swiftshader',
  description: '',
  isFallbackAdapter: true,
  features: SWIFTSHADER_FEATURES,
  limits: SWIFTSHADER_LIMITS,
};

const hardware: WebGpuProbe = {
  kind: 'adapter',
  vendor: 'nvidia',
  architecture: 'hopper',
  description: 'NVIDIA H200',
  isFallbackAdapter: false,
  features: ['shader-f16', 'subgroups'],
  limits: { maxBufferSize: 2 * GIB, maxStorageBufferBindingSize: 2 * GIB, maxComputeWorkgroupStorageSize: 65536, maxStorageBuffersPerShaderStage: 16 },
};

function gpuAnswering(requestAdapter: (options?: GPURequestAdapterOptions) => Promise<GPUAdapter | null>) {
  return { requestAdapter };
}

function adapterWith(info: Partial<GPUAdapterInfo>, features: string[], limits: object): GPUAdapter {
  return { info, features: new Set(features), limits } as unknown as GPUAdapter;
}

describe('probeWebGpu', () => {
  it('reports a context without navigator.gpu (Node has none)', async () => {
    expect(await probeWebGpu()).toEqual({ kind: 'no-api' });
  });

  it('reports no adapter, and a failed request with its message', async () => {
    expect(await probeWebGpu(gpuAnswering(() => Promise.resolve(null)))).toEqual({ kind: 'no-adapter' });
    expect(await probeWebGpu(gpuAnswering(() => Promise.reject(new Error('GPU process crashed'))))).toEqual({
      kind: 'failed',
      message: 'GPU process crashed',
    });
  });

  it('asks for the high-performance adapter, as web-llm does, and returns plain data', async () => {
    let asked: GPURequestAdapterOptions | undefined;
    const adapter = adapterWith(
      { vendor: 'google', architecture: 'swiftshader', description: '', isFallbackAdapter: true },
      ['timestamp-query', 'subgroups', 'float32-filterable', 'bgra8unorm-storage'],
      { ...SWIFTSHADER_LIMITS, maxTextureDimension2D: 8192 },
    );
    const probe = await probeWebGpu(
      gpuAnswering((options) => {
        asked = options;
        return Promise.resolve(adapter);
      }),
    );
    expect(asked).toEqual({ powerPreference: 'high-performance' });
    expect(probe).toEqual(swiftshader);
    expect(structuredClone(probe)).toEqual(probe);
  });

  it('treats a missing isFallbackAdapter (older Chromium) as a hardware adapter', async () => {
    const adapter = adapterWith({ vendor: 'intel', architecture: 'gen-12lp', description: '' }, ['shader-f16'], SWIFTSHADER_LIMITS);
    expect(await probeWebGpu(gpuAnswering(() => Promise.resolve(adapter)))).toMatchObject({ isFallbackAdapter: false, features: ['shader-f16'] });
  });
});

describe('assessWebGpu and modelAvailability', () => {
  it('on a SwiftShader-like fallback without shader-f16: q4f16 unavailable with the reason, q4f32 available but slow', () => {
    const report = assessWebGpu(swiftshader);
    expect(report).toMatchObject({ usable: true, shaderF16: false, software: true, limited: false });
    expect(report.lines).toEqual([
      'WebGPU adapter: google, swiftshader.',
      'This is a software adapter (the CPU pretending to be a GPU): local models will run, but very slowly.',
      'shader-f16 is not supported, so only q4f32 models can run.',
    ]);
    const f16 = modelAvailability(model('Qwen3-0.6B-q4f16_1-MLC'), report);
    expect(f16).toMatchObject({ available: false, reason: 'Qwen3 0.6B (q4f16) needs shader-f16, which this GPU lacks: use the q4f32 variant.' });
    const f32 = modelAvailability(model('Qwen3-0.6B-q4f32_1-MLC'), report);
    expect(f32.available).toBe(true);
    expect(f32.reason).toBe('Qwen3 0.6B (q4f32) can run here; it needs about 1.9 GB of GPU memory.');
    expect(f32.warnings).toEqual(['This is a software adapter: expect it to be very slow.']);
    for (const m of QWEN3_MODELS) expect(modelAvailability(m, report).available).toBe(m.quantization === 'q4f32_1');
  });

  it('on a hardware adapter with shader-f16, every model is available', () => {
    const report = assessWebGpu(hardware);
    expect(report).toMatchObject({ usable: true, shaderF16: true, software: false, limited: false });
    expect(report.lines).toContain('shader-f16 is supported, so both q4f16 and q4f32 models can run.');
    for (const m of QWEN3_MODELS) expect(modelAvailability(m, report)).toMatchObject({ available: true, warnings: [] });
  });

  it("refuses every model when a limit is below web-llm's minimum, naming the limit", () => {
    const probe: WebGpuProbe = { ...hardware, limits: { ...hardware.limits, maxStorageBuffersPerShaderStage: 8, maxComputeWorkgroupStorageSize: 16384 } } as WebGpuProbe;
    const report = assessWebGpu(probe);
    expect(report.usable).toBe(false);
    expect(report.lines).toEqual([
      'WebGPU adapter: nvidia, hopper (NVIDIA H200).',
      'maxComputeWorkgroupStorageSize is 16 KiB; web-llm needs at least 32 KiB.',
      'maxStorageBuffersPerShaderStage is 8; web-llm needs at least 10.',
      'Local models cannot run on this GPU; remote models still can.',
    ]);
    expect(modelAvailability(model('Qwen3-0.6B-q4f32_1-MLC'), report)).toMatchObject({
      available: false,
      reason: 'Qwen3 0.6B (q4f32) needs a usable WebGPU adapter, which this browser does not have.',
    });
  });

  it('says plainly when there is no WebGPU at all', () => {
    expect(assessWebGpu({ kind: 'no-api' })).toEqual({
      usable: false,
      shaderF16: false,
      software: false,
      limited: false,
      lines: ['WebGPU is not available: this browser does not support it (recent Chrome, Edge and Safari do).', 'Local models cannot run here; remote models still can.'],
    });
    expect(assessWebGpu({ kind: 'failed', message: 'boom' }).lines[0]).toBe('WebGPU is not available: the browser could not open the graphics adapter (boom).');
    expect(modelAvailability(model('Qwen3-8B-q4f32_1-MLC'), assessWebGpu({ kind: 'no-adapter' })).available).toBe(false);
  });

  it('warns (without refusing) about large models on a limited device', () => {
    const limited = assessWebGpu({ ...hardware, limits: { ...hardware.limits, maxStorageBufferBindingSize: 512 * 1024 ** 2 } } as WebGpuProbe);
    expect(limited.limited).toBe(true);
    expect(limited.lines.at(-1)).toMatch(/512 MiB \(web-llm prefers 1 GiB\).*large models may not load/);
    expect(modelAvailability(model('Qwen3-8B-q4f16_1-MLC'), limited)).toMatchObject({
      available: true,
      warnings: ['web-llm marks Qwen3 8B (q4f16) as too large for limited devices, and this GPU looks like one.'],
    });
    expect(modelAvailability(model('Qwen3-4B-q4f16_1-MLC'), limited).warnings).toEqual([]);
  });

  it("warns when the model's memory estimate, with its context window, exceeds the device's memory", () => {
    const report = assessWebGpu({ ...hardware, deviceMemoryGB: 8 } as WebGpuProbe);
    expect(report.deviceMemoryGB).toBe(8);
    const m = model('Qwen3-8B-q4f16_1-MLC');
    expect(modelAvailability(m, report)).toMatchObject({ vramEstimateMB: 5696, warnings: [] });
    const long = modelAvailability(m, report, { contextWindow: 32768 });
    expect(long.vramEstimateMB).toBe(9728);
    expect(long.warnings).toEqual(['It needs about 9.5 GB of GPU memory, and this device reports 8 GB of memory: it may run out.']);
  });
});
