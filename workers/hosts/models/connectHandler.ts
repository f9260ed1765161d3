// The model worker's wiring: web-llm's engine handler answers on a MessagePort (one end of the
// channel the page made) instead of the worker's own postMessage, so the orchestrator worker's
// WebWorkerMLCEngine at the other end talks to it directly.

import type { WebWorkerMLCEngineHandler } from '@mlc-ai/web-llm';

export function connectHandler(handler: WebWorkerMLCEngineHandler, port: MessagePort): void {
  handler.postMessage = (message) => port.postMessage(message);
  port.onmessage = (message) => handler.onmessage(message);
}
