import { MLCEngine } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { classifyWebLlmError, errorText, webLlmError } from './webllmErrors.ts';

function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

describe('classifyWebLlmError', () => {
  it('reads a real web-llm error, as an Error and as the string its worker sends', async () => {
    let thrown: unknown;
    try {
      await new MLCEngine().reload('no-such-model');
    } catch (error) {
      thrown = error;
    }
    expect(errorText(thrown)).toMatch(/^ModelNotFoundError: Cannot find model record in appConfig for no-such-model/);
    expect(classifyWebLlmError(thrown, 'no-such-model').kind).toBe('model_not_found');
    expect(classifyWebLlmError(errorText(thrown), 'no-such-model').kind).toBe('model_not_found');
  });

  it('tells the GPU limits apart and names the one that fell short', () => {
    const workgroup = classifyWebLlmError(
      'Error: Cannot initialize runtime because of requested maxComputeWorkgroupStorageSize exceeds limit. requested=32768, limit=16384. ',
    );
    expect(workgroup).toMatchObject({ kind: 'gpu_limits', code: 'webgpu' });
    expect(workgroup.message).toBe('This GPU cannot run local models: maxComputeWorkgroupStorageSize is 16384, below the 32768 web-llm needs. Use another device or a remote model.');
    expect(classifyWebLlmError(named('FeatureSupportError', 'This model requires feature subgroups, which is not yet supported by this browser.')).kind).toBe('gpu_limits');
  });

  it('finds a quota failure inside a wrapped storage error, and an abort by its name', () => {
    const wrapped = named('Error', 'Failed to store https://huggingface.co/x/resolve/main/params_shard_3.bin with error: QuotaExceededError: The quota has been exceeded.');
    expect(classifyWebLlmError(wrapped)).toMatchObject({ kind: 'storage_quota', code: 'storage_quota' });
    expect(classifyWebLlmError(new DOMException('The operation was aborted.', 'AbortError'))).toMatchObject({ kind: 'aborted', code: 'aborted' });
  });

  it('keeps what web-llm said, shortened, and passes BackendErrors through', () => {
    const failure = classifyWebLlmError(`Error: ${'x'.repeat(400)}`);
    expect(failure.kind).toBe('unknown');
    expect(failure.detail.length).toBeLessThanOrEqual(301);
    const error = webLlmError('DeviceLostError: lost', 'm');
    expect(webLlmError(error)).toBe(error);
    expect(error.retryable).toBe(false);
  });
});
