// Plain-language headings for the error codes and stop reasons a run can end with. The message
// under a heading comes from the backend or engine, which already says what to do; the heading
// says what kind of problem it is, so a person can tell a CORS block from a bad key at a glance.

import type { StopReason } from '../../workers/engine/events.ts';

export interface ErrorExplanation {
  title: string;
  /** What to do, when the message itself may not say it. */
  hint?: string;
}

const ERRORS: Record<string, ErrorExplanation> = {
  cors: {
    title: 'The server does not allow requests from this page (CORS)',
    hint: 'This is not a bad key: the server must allow this page’s origin, or be reached through a proxy.',
  },
  interrupted: { title: 'The recording stops here' },
  auth: { title: 'The API key was refused', hint: 'Check the key for this provider in Setup.' },
  rate_limit: { title: 'Rate limited by the provider', hint: 'The playground waits as long as the provider asks, then retries.' },
  server: { title: 'The provider’s server failed' },
  network: { title: 'The connection failed' },
  timeout: { title: 'No answer in time' },
  bad_request: { title: 'The provider rejected the request' },
  not_found: { title: 'Model or endpoint not found', hint: 'Check the base URL and the model id in Setup.' },
  context_length: { title: 'The prompt is longer than the model’s context window' },
  bad_response: { title: 'The provider sent a response that could not be read' },
  redirect: {
    title: 'The endpoint redirected the request elsewhere',
    hint: 'Requests to model providers never follow a redirect, so the key was not sent on. Put the right address in the base URL.',
  },
  too_large: { title: 'The response was larger than the playground reads' },
  webgpu: {
    title: 'This browser’s GPU cannot run the local model',
    hint: 'Models in this browser lists what can run here; remote models work everywhere.',
  },
  out_of_memory: {
    title: 'The local model ran out of GPU memory',
    hint: 'Load a smaller model or a shorter context window in Models in this browser, then run again.',
  },
  storage_quota: {
    title: 'The browser has no room left for the model’s files',
    hint: 'Delete cached models you no longer need in Models in this browser.',
  },
  invalid_output: {
    title: 'The orchestrator emitted no valid tool call',
    hint: 'A small or untuned model often does this; the run stops after a few such steps in a row.',
  },
  aborted: { title: 'Stopped' },
  engine: { title: 'The engine failed unexpectedly', hint: 'This is a bug in the playground; the next run starts cleanly.' },
  worker: { title: 'The orchestrator worker stopped' },
};

export function explainError(code: string): ErrorExplanation {
  return ERRORS[code] ?? { title: 'Something went wrong' };
}

const STOP_REASONS: Record<StopReason, string> = {
  answered: 'Answered',
  final_message: 'Answered',
  max_turns: 'Stopped: reached the maximum number of steps',
  max_cost: 'Stopped: reached the budget',
  max_time: 'Stopped: reached the time limit',
  aborted: 'Stopped by you',
  invalid_output: 'Stopped: the orchestrator kept emitting no valid tool call',
  error: 'Stopped by an error',
};

export function describeStopReason(reason: StopReason): string {
  return STOP_REASONS[reason];
}

/** True for the reasons that mean the run ended with an answer. */
export function isAnswered(reason: StopReason): boolean {
  return reason === 'answered' || reason === 'final_message';
}
