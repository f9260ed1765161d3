// web-llm's failures, classified into BackendErrors whose message says the way out.
//
// web-llm's error classes are not exported, and crossing its worker boundary turns every error
// into the string `err.toString()` ("DeviceLostError: The WebGPU device was lost…"). So errors
// are recognised by that name prefix or by the words of the message, never with `instanceof`.
// The texts matched here are web-llm 0.2.86's (lib/index.js).

import { BackendError, isAbortError, type BackendErrorCode } from '../../engine/errors.ts';

export const PROVIDER = 'web-llm';

/** What went wrong, finer than a BackendError code (which several kinds share). */
export type WebLlmFailureKind =
  | 'webgpu_unavailable'
  | 'no_adapter'
  | 'shader_f16_missing'
  | 'gpu_limits'
  | 'device_lost'
  | 'out_of_memory'
  | 'context_window'
  | 'model_not_found'
  | 'model_not_loaded'
  | 'storage_quota'
  | 'download_failed'
  | 'invalid_request'
  | 'aborted'
  | 'unknown';

export interface WebLlmFailure {
  kind: WebLlmFailureKind;
  code: BackendErrorCode;
  /** Plain language: what happened and what to do. */
  message: string;
  /** What web-llm itself said, shortened. */
  detail: string;
}

/** GPU, memory and storage failures need the person to choose differently (another model, a
 * shorter window, less cached data), so their codes are among those on which a run stops. */
const CODE_OF: Record<WebLlmFailureKind, BackendErrorCode> = {
  webgpu_unavailable: 'webgpu',
  no_adapter: 'webgpu',
  shader_f16_missing: 'webgpu',
  gpu_limits: 'webgpu',
  device_lost: 'out_of_memory',
  out_of_memory: 'out_of_memory',
  context_window: 'context_length',
  model_not_found: 'not_found',
  model_not_loaded: 'not_found',
  storage_quota: 'storage_quota',
  download_failed: 'network',
  invalid_request: 'bad_request',
  aborted: 'aborted',
  unknown: 'server',
};

/** The text web-llm's worker would send for this error: "Name: message". */
export function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    if (typeof message === 'string') return typeof name === 'string' ? `${name}: ${message}` : message;
  }
  return String(error);
}

const INVALID_REQUEST_NAMES = [
  'MessageOrderError',
  'SystemMessageOrderError',
  'UnsupportedRoleError',
  'ContentTypeError',
  'UnsupportedModelIdError',
  'UnsupportedFieldsError',
  'InvalidResponseFormatError',
  'InvalidResponseFormatGrammarError',
  'InvalidResponseFormatStructuralTagError',
  'GrammarMatcherInitError',
  'CustomSystemPromptError',
  'InvalidStreamOptionsError',
  'StreamingCountError',
  'ConfigValueError',
  'MinValueError',
  'RangeError',
  'NonNegativeError',
  'DependencyError',
  'MissingModelError',
  'WindowSizeConfigurationError',
  'WindowSizeSpecificationError',
];

function startsWithName(text: string, names: readonly string[]): boolean {
  return names.some((name) => text.startsWith(`${name}:`));
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 300)}…` : oneLine;
}

/** Classifies anything web-llm threw or rejected with. `modelId` names the model in messages. */
export function classifyWebLlmError(error: unknown, modelId?: string): WebLlmFailure {
  const text = errorText(error);
  const detail = shorten(text);
  const model = modelId ? `"${modelId}"` : 'the model';
  const failure = (kind: WebLlmFailureKind, message: string): WebLlmFailure => ({ kind, code: CODE_OF[kind], message, detail });

  if (isAbortError(error) || text.startsWith('AbortError:')) {
    return failure('aborted', `Loading or running ${model} was cancelled.`);
  }
  if (startsWithName(text, ['WebGPUNotAvailableError', 'WebGPUNotFoundError']) || text.includes('Cannot find WebGPU in the environment')) {
    return failure(
      'webgpu_unavailable',
      'This browser does not offer WebGPU, which local models need. Use a browser with WebGPU turned on (a recent Chrome or Edge), or pick a remote model.',
    );
  }
  if (text.includes('Unable to find a compatible GPU')) {
    return failure(
      'no_adapter',
      'WebGPU is present but found no usable GPU. Turn on hardware acceleration in the browser settings, or pick a remote model.',
    );
  }
  if (text.startsWith('ShaderF16SupportError:') || (text.startsWith('FeatureSupportError:') && text.includes('shader-f16'))) {
    return failure(
      'shader_f16_missing',
      `${model} needs the WebGPU feature shader-f16, which this GPU lacks. Use the q4f32 variant of the same model.`,
    );
  }
  const limit = /requested (maxBufferSize|maxStorageBufferBindingSize|maxComputeWorkgroupStorageSize|maxStorageBuffersPerShaderStage) exceeds limit\. requested=(\S+), limit=(\S+?)\.?\s/.exec(`${text} `);
  if (limit || text.startsWith('FeatureSupportError:')) {
    const what = limit ? `${limit[1]} is ${limit[3]}, below the ${limit[2]} web-llm needs` : 'it lacks a WebGPU feature the model needs';
    return failure('gpu_limits', `This GPU cannot run local models: ${what}. Use another device or a remote model.`);
  }
  if (text.startsWith('DeviceLostError:') || /device (was )?lost/i.test(text)) {
    return failure(
      'device_lost',
      `The GPU gave up while running ${model}, usually because it ran out of memory. Load a smaller model or a shorter context window, or close other tabs that use the GPU, then load again.`,
    );
  }
  if (/out of memory|OutOfMemory|Failed to allocate|Cannot allocate \d+ bytes/i.test(text)) {
    return failure(
      'out_of_memory',
      `There is not enough memory for ${model}. Load a smaller model or a shorter context window, or close other tabs that use the GPU.`,
    );
  }
  if (text.startsWith('ContextWindowSizeExceededError:')) {
    const sizes = /number of prompt tokens: (\d+); context window size: (\d+)/.exec(text);
    const how = sizes ? ` (${sizes[1]} tokens for a window of ${sizes[2]})` : '';
    return failure(
      'context_window',
      `The conversation is too long for ${model}'s context window${how}. Shorten the task, or load the model with a larger context window if the GPU has memory for it.`,
    );
  }
  if (text.startsWith('ModelNotFoundError:')) {
    return failure(
      'model_not_found',
      `web-llm has no model record for ${model}. Check the model id, and that its record is in the app config.`,
    );
  }
  if (startsWithName(text, ['ModelNotLoadedError', 'WorkerEngineModelNotLoadedError', 'SpecifiedModelNotFoundError', 'UnclearModelToUseError'])) {
    return failure('model_not_loaded', `${model} is not loaded (a GPU failure unloads it). Load it again.`);
  }
  if (/QuotaExceeded|quota/i.test(text)) {
    return failure(
      'storage_quota',
      `The browser refused to store ${model}'s files: its storage quota is used up. Delete cached models you no longer need (or other site data), or pick a smaller model.`,
    );
  }
  if (/Failed to fetch|NetworkError|Cannot fetch|Unable to fetch|Request failed|Failed to store|Network response was not ok|Load failed/i.test(text)) {
    return failure(
      'download_failed',
      `Downloading ${model}'s files failed. Check the connection and, for a custom model, that its URL serves the files with CORS headers; then load again (files already downloaded are kept).`,
    );
  }
  if (startsWithName(text, INVALID_REQUEST_NAMES)) {
    return failure('invalid_request', `web-llm rejected the request to ${model}: ${detail}`);
  }
  return failure('unknown', `The local model ${model} failed: ${detail}`);
}

/** The BackendError for a web-llm failure (code, plain message, the original as `cause`). */
export function webLlmError(error: unknown, modelId?: string): BackendError {
  if (error instanceof BackendError) return error;
  const failure = classifyWebLlmError(error, modelId);
  return new BackendError({ code: failure.code, provider: PROVIDER, message: failure.message, retryable: false, cause: error });
}

export function abortedError(modelId: string): BackendError {
  return new BackendError({ code: 'aborted', provider: PROVIDER, retryable: false, message: `The call to ${modelId} was cancelled.` });
}
