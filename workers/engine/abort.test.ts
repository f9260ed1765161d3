import { describe, expect, it } from 'vitest';
import { raceAbort } from './abort.ts';

const stopped = () => new Error('stopped');

describe('raceAbort', () => {
  it('settles as the promise does while the signal stays quiet', async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(7), controller.signal, stopped)).resolves.toBe(7);
    await expect(raceAbort(Promise.reject(new Error('boom')), controller.signal, stopped)).rejects.toThrow('boom');
  });

  it('rejects with the abort error the moment the signal aborts, though the promise never settles', async () => {
    const controller = new AbortController();
    const waiting = raceAbort(new Promise<never>(() => {}), controller.signal, stopped);
    controller.abort();
    await expect(waiting).rejects.toThrow('stopped');
  });

  it('rejects at once when the signal has already aborted, and passes the promise through with no signal', async () => {
    await expect(raceAbort(Promise.resolve(1), AbortSignal.abort(), stopped)).rejects.toThrow('stopped');
    await expect(raceAbort(Promise.resolve(1), undefined, stopped)).resolves.toBe(1);
  });
});
