// The worker side of web-llm's worker protocol, answered by a FakeWebLlmEngine: what
// WebWorkerMLCEngineHandler does with a real MLCEngine (web-llm 0.2.86, lib/index.js), for the
// requests a WebLlmEngine makes. A page then keeps web-llm's own WebWorkerMLCEngine (or
// CreateWebWorkerMLCEngine) and a browser test swaps only the worker:
//
//   // fake-engine.worker.ts
//   const serve = serveFakeEngine(new FakeWebLlmEngine(script), (response) => self.postMessage(response));
//   self.onmessage = (event) => serve(event.data);
//
// As in web-llm, a failure crosses as the string `err.toString()` ("Name: message").

import type { AppConfig, ChatCompletionChunk, ChatCompletionRequestStreaming, ChatOptions, WorkerRequest, WorkerResponse } from '@mlc-ai/web-llm';
import type { FakeWebLlmEngine } from './fakeWebLlmEngine.ts';

type Content = WorkerRequest['content'];

interface ReloadParams {
  modelId: string[];
  chatOpts?: ChatOptions[];
}
interface StreamInitParams {
  request: ChatCompletionRequestStreaming;
  streamId: string;
}
interface StreamParams {
  streamId: string;
}

/** One value for one model, as the page called it (web-llm's proxy wraps both in arrays). */
function single<T>(values: T[] | undefined): T | T[] | undefined {
  return values?.length === 1 ? values[0] : values;
}

export function serveFakeEngine(engine: FakeWebLlmEngine, post: (response: WorkerResponse) => void): (request: WorkerRequest) => void {
  const streams = new Map<string, AsyncIterator<ChatCompletionChunk>>();
  engine.setInitProgressCallback((report) => post({ kind: 'initProgressCallback', uuid: '', content: report }));

  const answer = (uuid: string, task: () => Promise<Content>) => {
    task().then(
      (content) => post({ kind: 'return', uuid, content }),
      (error: unknown) => post({ kind: 'throw', uuid, content: String(error) }),
    );
  };

  return (request) => {
    const { uuid, content } = request;
    switch (request.kind) {
      case 'setAppConfig':
        engine.setAppConfig(content as AppConfig);
        return;
      case 'setLogLevel':
      case 'customRequest':
      case 'keepAlive':
        return;
      case 'reload':
        answer(uuid, async () => {
          const params = content as ReloadParams;
          const modelId = single(params.modelId) ?? [];
          const chatOpts = single(params.chatOpts);
          await (chatOpts === undefined ? engine.reload(modelId) : engine.reload(modelId, chatOpts));
          return null;
        });
        return;
      case 'unload':
        answer(uuid, async () => {
          await engine.unload();
          streams.clear();
          return null;
        });
        return;
      case 'interruptGenerate':
        answer(uuid, async () => {
          engine.interruptGenerate();
          return null;
        });
        return;
      case 'chatCompletionStreamInit':
        answer(uuid, async () => {
          const params = content as StreamInitParams;
          const stream = await engine.chat.completions.create(params.request);
          streams.set(params.streamId, stream[Symbol.asyncIterator]());
          return null;
        });
        return;
      case 'completionStreamNextChunk':
        answer(uuid, async () => {
          const { streamId } = content as StreamParams;
          const iterator = streams.get(streamId);
          if (!iterator) throw new Error('InternalError: Chunk generator in worker should be instantiated by now.');
          try {
            const { value, done } = await iterator.next();
            if (done) streams.delete(streamId);
            return value as Content;
          } catch (error) {
            streams.delete(streamId);
            throw error;
          }
        });
        return;
      case 'completionStreamReturn':
        answer(uuid, async () => {
          const { streamId } = content as StreamParams;
          try {
            await streams.get(streamId)?.return?.();
          } finally {
            streams.delete(streamId);
          }
          return null;
        });
        return;
      default:
        answer(uuid, () => Promise.reject(new Error(`The fake web-llm worker does not handle "${request.kind}".`)));
    }
  };
}
