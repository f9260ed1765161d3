// What the browser's WebGPU can do, and which local models it can run, in plain words.
// The probe works on the page and in a worker (both have navigator.gpu) and returns plain data,
// so it can cross postMessage and sit in a React store. This extends app/probeWebGpu.ts with the
// limits web-llm checks when it loads a model.

import { formatBinaryBytes } from '../../engine/format.ts';
import { estimateVramMB, type LocalModel } from './catalogue.ts';

export interface AdapterLimits {
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  maxComputeWorkgroupStorageSize: number;
  maxStorageBuffersPerShaderStage: number;
}

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
      features: string[];
      limits: AdapterLimits;
      /** navigator.deviceMemory: the device's RAM in GB, rounded down to a power of two, when the browser tells. */
      deviceMemoryGB?: number;
    };

/** web-llm 0.2.86's requirements when it opens the GPU (detectGPUDevice in its bundle): it asks
 * for 1 GiB buffers and bindings and settles for 256 MiB / 128 MiB, and needs 32 KiB of
 * workgroup storage and 10 storage buffers per shader stage. */
export const WEBLLM_MINIMUM_LIMITS: AdapterLimits = {
  maxBufferSize: 256 * 1024 * 1024,
  maxStorageBufferBindingSize: 128 * 1024 * 1024,
  maxComputeWorkgroupStorageSize: 32 * 1024,
  maxStorageBuffersPerShaderStage: 10,
};
/** Below this binding size web-llm treats the device as limited (a phone). */
export const WEBLLM_PREFERRED_BINDING_SIZE = 1024 * 1024 * 1024;

type GpuLike = { requestAdapter(options?: GPURequestAdapterOptions): Promise<GPUAdapter | null> };

function defaultGpu(): GpuLike | undefined {
  return (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu;
}

function deviceMemory(): number | undefined {
  const value = (globalThis.navigator as { deviceMemory?: unknown } | undefined)?.deviceMemory;
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/** Asks for the adapter web-llm will get (high-performance) and reads what it offers. */
export async function probeWebGpu(gpu: GpuLike | undefined = defaultGpu()): Promise<WebGpuProbe> {
  if (!gpu) return { kind: 'no-api' };
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  if (!adapter) return { kind: 'no-adapter' };
  const info = adapter.info as Partial<GPUAdapterInfo> | undefined;
  const { limits } = adapter;
  const probe: WebGpuProbe = {
    kind: 'adapter',
    vendor: info?.vendor ?? '',
    architecture: info?.architecture ?? '',
    description: info?.description ?? '',
    // Older Chromium builds lack GPUAdapterInfo.isFallbackAdapter.
    isFallbackAdapter: info?.isFallbackAdapter === true,
    features: [...adapter.features].sort(),
    limits: {
      maxBufferSize: limits.maxBufferSize,
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
      maxStorageBuffersPerShaderStage: limits.maxStorageBuffersPerShaderStage,
    },
  };
  const memory = deviceMemory();
  if (memory !== undefined) probe.deviceMemoryGB = memory;
  return probe;
}

export interface WebGpuReport {
  /** Whether web-llm can open this GPU at all. */
  usable: boolean;
  shaderF16: boolean;
  /** A software (CPU) adapter such as SwiftShader: works, very slowly. */
  software: boolean;
  /** Below web-llm's preferred binding size: it treats the device as a limited one. */
  limited: boolean;
  deviceMemoryGB?: number;
  /** One plain sentence per fact, in the order a reader needs them. */
  lines: string[];
}

const LIMIT_NAMES: ReadonlyArray<keyof AdapterLimits> = [
  'maxBufferSize',
  'maxStorageBufferBindingSize',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBuffersPerShaderStage',
];

function describeLimit(name: keyof AdapterLimits, value: number): string {
  return name === 'maxStorageBuffersPerShaderStage' ? String(value) : formatBinaryBytes(value);
}

/** The limits below web-llm's minimums, as sentences. */
function limitShortfalls(limits: AdapterLimits): string[] {
  return LIMIT_NAMES.filter((name) => limits[name] < WEBLLM_MINIMUM_LIMITS[name]).map(
    (name) => `${name} is ${describeLimit(name, limits[name])}; web-llm needs at least ${describeLimit(name, WEBLLM_MINIMUM_LIMITS[name])}.`,
  );
}

export function assessWebGpu(probe: WebGpuProbe): WebGpuReport {
  const none = (line: string): WebGpuReport => ({ usable: false, shaderF16: false, software: false, limited: false, lines: [line, 'Local models cannot run here; remote models still can.'] });
  switch (probe.kind) {
    // Said for a person: what is missing and the likely reason, not the API calls that found it.
    case 'no-api':
      return none('WebGPU is not available: this browser does not support it (recent Chrome, Edge and Safari do).');
    case 'no-adapter':
      return none('WebGPU is not available: this browser found no graphics adapter to use (this computer has no GPU, or the browser does not use it).');
    case 'failed':
      return none(`WebGPU is not available: the browser could not open the graphics adapter (${probe.message}).`);
    case 'adapter': {
      const shortfalls = limitShortfalls(probe.limits);
      const shaderF16 = probe.features.includes('shader-f16');
      const limited = probe.limits.maxStorageBufferBindingSize < WEBLLM_PREFERRED_BINDING_SIZE;
      const lines = [
        `WebGPU adapter: ${probe.vendor || 'unknown vendor'}, ${probe.architecture || 'unknown architecture'}${probe.description ? ` (${probe.description})` : ''}.`,
      ];
      if (shortfalls.length > 0) lines.push(...shortfalls, 'Local models cannot run on this GPU; remote models still can.');
      else {
        lines.push(
          probe.isFallbackAdapter
            ? 'This is a software adapter (the CPU pretending to be a GPU): local models will run, but very slowly.'
            : 'This is a hardware adapter.',
          shaderF16
            ? 'shader-f16 is supported, so both q4f16 and q4f32 models can run.'
            : 'shader-f16 is not supported, so only q4f32 models can run.',
        );
        if (limited) {
          lines.push(
            `Its storage buffer binding size is ${formatBinaryBytes(probe.limits.maxStorageBufferBindingSize)} (web-llm prefers 1 GiB): web-llm treats it as a limited device, and large models may not load.`,
          );
        }
      }
      const report: WebGpuReport = { usable: shortfalls.length === 0, shaderF16, software: probe.isFallbackAdapter, limited, lines };
      if (probe.deviceMemoryGB !== undefined) report.deviceMemoryGB = probe.deviceMemoryGB;
      return report;
    }
  }
}

/** The warning every model gets on a software adapter (the capability report says it once). */
export const SOFTWARE_ADAPTER_WARNING = 'This is a software adapter: expect it to be very slow.';

export interface ModelAvailability {
  available: boolean;
  /** Why not, or (when available) what to expect, in one sentence. */
  reason: string;
  /** Doubts that do not block loading (it may still run out of memory). */
  warnings: string[];
  vramEstimateMB: number;
}

/** Whether `model` can run on the assessed GPU with `contextWindow` tokens of KV cache. WebGPU
 * does not tell how much memory the GPU has, so memory is a warning, never a refusal: the hints
 * are web-llm's "limited device" test and the device's RAM (all of it, on integrated GPUs). */
export function modelAvailability(model: LocalModel, report: WebGpuReport, options: { contextWindow?: number } = {}): ModelAvailability {
  const vramEstimateMB = estimateVramMB(model, options.contextWindow);
  const result = (available: boolean, reason: string, warnings: string[] = []): ModelAvailability => ({ available, reason, warnings, vramEstimateMB });
  if (!report.usable) return result(false, `${model.label} needs a usable WebGPU adapter, which this browser does not have.`);
  if (model.requiresShaderF16 && !report.shaderF16) {
    return result(false, `${model.label} needs shader-f16, which this GPU lacks: use the q4f32 variant.`);
  }
  const warnings: string[] = [];
  const gb = (vramEstimateMB / 1024).toFixed(1);
  if (report.limited && !model.lowResource) {
    warnings.push(`web-llm marks ${model.label} as too large for limited devices, and this GPU looks like one.`);
  }
  if (report.deviceMemoryGB !== undefined && vramEstimateMB > report.deviceMemoryGB * 1024) {
    warnings.push(`It needs about ${gb} GB of GPU memory, and this device reports ${report.deviceMemoryGB} GB of memory: it may run out.`);
  }
  if (report.software) warnings.push(SOFTWARE_ADAPTER_WARNING);
  return result(true, `${model.label} can run here; it needs about ${gb} GB of GPU memory.`, warnings);
}
