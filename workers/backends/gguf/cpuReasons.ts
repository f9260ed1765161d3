// Why llama.cpp runs a GGUF model on the CPU when the browser has no WebGPU it can use, in a
// person's words: the model worker says it of a loaded model, the Models panel before a load.

export const CPU_REASONS = {
  noApi: 'Runs on the CPU: this browser has no WebGPU.',
  noAdapter: 'Runs on the CPU: no WebGPU here (this browser found no GPU it can use).',
  noF16: "Runs on the CPU: this GPU lacks shader-f16, which llama.cpp's WebGPU backend needs.",
} as const;

/** Why a GGUF model will run on the CPU here, from the page's WebGPU probe (webllm/capabilities.ts);
 * null when llama.cpp may put layers on WebGPU, or before the probe has answered. */
export function ggufCpuOnly(probe: { kind: string; features?: readonly string[] } | undefined): string | null {
  if (!probe) return null;
  if (probe.kind === 'no-api') return CPU_REASONS.noApi;
  if (probe.kind !== 'adapter') return CPU_REASONS.noAdapter;
  return probe.features?.includes('shader-f16') ? null : CPU_REASONS.noF16;
}
