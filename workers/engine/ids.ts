// Ids for runs and evaluations, in a module of their own so the page can make one without
// importing the run loop.

export function newRunId(): string {
  const random = globalThis.crypto?.randomUUID?.();
  return random ?? `run-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}
