// Test helpers shared by the backend tests (Node only: they drive the scripted HTTP server).

import { expect } from 'vitest';
import type { ScriptedServer } from '../../e2e/fixtures/scriptedServer.ts';
import type { ChatCompletion, ChatDelta, ChatModel, ChatRequest } from '../engine/types.ts';
import { BackendError } from './errors.ts';

export const TEST_KEY = 'placeholder-key-for-backend-tests';
export const MODEL = 'scripted-model';

export interface Outcome {
  completion?: ChatCompletion;
  error?: BackendError;
  deltas: ChatDelta[];
  elapsedMs: number;
}

/** Runs one call, capturing its deltas, result or BackendError, and wall time. */
export async function call(
  model: ChatModel,
  request: Partial<ChatRequest> = {},
  onDelta?: (delta: ChatDelta) => void,
): Promise<Outcome> {
  const deltas: ChatDelta[] = [];
  const started = Date.now();
  try {
    const completion = await model.complete({ messages: [{ role: 'user', content: 'Hello' }], ...request }, (delta) => {
      deltas.push(delta);
      onDelta?.(delta);
    });
    return { completion, deltas, elapsedMs: Date.now() - started };
  } catch (error) {
    if (!(error instanceof BackendError)) throw error;
    return { error, deltas, elapsedMs: Date.now() - started };
  }
}

/** Asserts the call failed with this code, and that the key is nowhere in the error. */
export function expectFailure(outcome: Outcome, code: BackendError['code']): BackendError {
  expect(outcome.completion).toBeUndefined();
  const error = outcome.error;
  if (!error) throw new Error('expected a BackendError');
  expect(error.code).toBe(code);
  expect(error.message.startsWith(`[${code}] `)).toBe(true);
  expect(error.message).not.toContain(TEST_KEY);
  expect(String(error.stack)).not.toContain(TEST_KEY);
  return error;
}

export function textOf(deltas: ChatDelta[], type: 'content' | 'reasoning'): string {
  return deltas.map((delta) => (delta.type === type ? delta.text : '')).join('');
}

export function retriesOf(deltas: ChatDelta[]): Array<Extract<ChatDelta, { type: 'retry' }>> {
  return deltas.filter((delta): delta is Extract<ChatDelta, { type: 'retry' }> => delta.type === 'retry');
}

/** Headers Node's fetch adds by itself; everything else was chosen by the client. */
const TRANSPORT_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'accept',
  'accept-encoding',
  'accept-language',
  'user-agent',
  'sec-fetch-mode',
]);

export function clientChosenHeaders(server: ScriptedServer, index = 0): Record<string, string> {
  const recorded = server.requests[index];
  if (!recorded) throw new Error(`no request #${index}`);
  return Object.fromEntries(Object.entries(recorded.headers).filter(([name]) => !TRANSPORT_HEADERS.has(name)));
}
