/// <reference lib="webworker" />
// The model worker: web-llm's own engine handler, which owns the GPU and one model. The page
// starts one per model and sends it one end of a MessageChannel; the orchestrator worker's
// WebWorkerMLCEngine holds the other end (workers/models/localModels.ts).

import { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';
import type { ToModelWorker } from '../messages.ts';
import { connectHandler } from './connectHandler.ts';

declare const self: DedicatedWorkerGlobalScope;

const handler = new WebWorkerMLCEngineHandler();

self.onmessage = (event: MessageEvent<ToModelWorker>) => connectHandler(handler, event.data.port);
