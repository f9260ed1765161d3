import { describe, expect, it } from 'vitest';
import { ABORTED, raceAbort, settledOrAborted } from './abort.ts';

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

describe('settledOrAborted', () => {
  it('says false once the promise settles, true the moment the signal aborts, and throws what the promise throws', async () => {
    const controller = new AbortController();
    await expect(settledOrAborted(Promise.resolve(1), controller.signal)).resolves.toBe(false);
    const waiting = settledOrAborted(new Promise<never>(() => {}), controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBe(true);
    await expect(settledOrAborted(Promise.reject(new Error('boom')), new AbortController().signal)).rejects.toThrow('boom');
    await expect(settledOrAborted(Promise.resolve(1))).resolves.toBe(false);
  });

  it('rejects with ABORTED when raceAbort is given no abort error', async () => {
    await expect(raceAbort(Promise.resolve(1), AbortSignal.abort())).rejects.toBe(ABORTED);
  });
});
