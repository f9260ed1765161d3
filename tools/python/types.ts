import type { PythonRunResult } from '../../workers/engine/ports.ts';


/** What one interpreter session reports; the host adds `timedOut` and `aborted`. */
export type SessionRunResult = Omit<PythonRunResult, 'timedOut' | 'aborted'>;

export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
