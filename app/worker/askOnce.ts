// Asking a short-lived worker one question (a file reader: config import, run files, results):
// started for it, ended with its answer, through the page's one worker client (requestClient.ts).
// Its own module, so the first screen does not load it: the readers load with their first file.

import type { RequestMap } from '../../workers/hosts/requests.ts';
import { createRequestClient, lossMessage, type WorkerLoss } from './requestClient.ts';

/** Asks a short-lived worker one question and ends it with the answer. A worker that fails, sends
 * what cannot be read, or takes longer than `deadlineMs` is ended too, and the caller gets
 * `failed(why)` in words instead of waiting. */
export async function askOnce<M extends RequestMap, K extends keyof M & string>(
  create: () => Worker,
  name: K,
  body: M[K]['body'],
  failed: (why: string) => M[K]['reply'],
  { deadlineMs, doing }: { deadlineMs: number; doing: string },
): Promise<M[K]['reply']> {
  let loss: WorkerLoss | undefined;
  const client = createRequestClient<M>({ create, onLost: (lost) => (loss = lost) });
  try {
    return await client.request(name, body, { deadlineMs });
  } catch (error) {
    if (loss) return failed(lossMessage(loss, 'the reader stopped', 'what the reader sent back could not be read'));
    if ((error as Error).name === 'DeadlineError') return failed(`${doing} took over ${Math.round(deadlineMs / 1000)} seconds, so it was stopped`);
    return failed((error as Error).message);
  } finally {
    client.terminate(new Error('done'));
  }
}

/** A hostile file could keep a reader busy for long: past this, it is given up, saying so. */
export const READ_TIMEOUT_MS = 60_000;
