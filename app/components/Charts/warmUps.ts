// What the charts' warm-ups (WarmUpWhenIdle.tsx, ChartWarmUp.tsx) remember across the page: which
// modules are warm, and the steps waiting for an idle moment. One per set of stores (usePart), so
// it lives and dies with the page, not with a module.

import { whenIdle } from '../../idle.ts';

export class WarmUps {
  /** The modules warmed up in this page, by name: once a page each. */
  readonly warmedUp = new Set<string>();
  /** Steps waiting for an idle moment, from every warm-up on the page, served one a moment: two
   * warm-ups (the Cost panel's and the Evaluate tab's) stepping in the same moment would render in
   * one transition and commit as one long task. */
  private readonly waiting: Array<() => void> = [];
  private pending = false;

  /** Runs `step` in an idle moment of its own; returns how to take it back. */
  nextTurn(step: () => void): () => void {
    this.waiting.push(step);
    this.serveNext();
    return () => {
      const index = this.waiting.indexOf(step);
      if (index >= 0) this.waiting.splice(index, 1);
    };
  }

  private serveNext(): void {
    if (this.pending || this.waiting.length === 0) return;
    this.pending = true;
    whenIdle(
      () => {
        this.pending = false;
        this.waiting.shift()?.();
        this.serveNext();
      },
      { timeoutMs: 3000, fallbackMs: 0 },
    );
  }
}

export function createWarmUps(): WarmUps {
  return new WarmUps();
}
