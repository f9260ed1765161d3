import { WebWorkerMLCEngine, WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyWebLlmError } from '../../backends/webllm/webllmErrors.ts';
import { connectHandler } from './connectHandler.ts';

// The real model worker's wiring, in Node: web-llm's own engine handler (a real MLCEngine) on one
// end of a MessageChannel, web-llm's WebWorkerMLCEngine on the other, as in the orchestrator
// worker. (Node has no WebGPU, so only requests that fail before the GPU can be answered here.)

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

describe('the model worker’s handler, connected through a port', () => {
  it('answers web-llm’s protocol on the port, its failures crossing as web-llm’s strings', async () => {
    const channel = new MessageChannel();
    channels.push(channel);
    connectHandler(new WebWorkerMLCEngineHandler(), channel.port2);
    const engine = new WebWorkerMLCEngine(channel.port1);
    const failure: unknown = await engine.reload('No-Such-Model-MLC').catch((error: unknown) => error);
    expect(typeof failure).toBe('string');
    expect(failure).toMatch(/^ModelNotFoundError: Cannot find model record in appConfig for No-Such-Model-MLC/);
    expect(classifyWebLlmError(failure, 'No-Such-Model-MLC')).toMatchObject({ kind: 'model_not_found', code: 'not_found' });
  });
});
