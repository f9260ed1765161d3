import { describe, expect, it } from 'vitest';
import { heldSteps, revealAll, revealedFor, revealNext, shownSteps } from './pacing.ts';

describe('presenter pacing', () => {
  it('starts every run at its first step, and remembers how far the paced run got', () => {
    expect(revealedFor({ runId: null, revealed: 1 }, 'run-a')).toBe(1);
    expect(revealedFor({ runId: 'run-a', revealed: 3 }, 'run-a')).toBe(3);
    expect(revealedFor({ runId: 'run-a', revealed: 3 }, 'run-b')).toBe(1);
  });

  it('shows the first step as it streams and holds back the steps after it', () => {
    expect(shownSteps(1, 0)).toBe(0);
    expect(shownSteps(1, 1)).toBe(1);
    expect(heldSteps(1, 1)).toBe(0);
    // Step 1 finished and step 2 started underneath: the display pauses on step 1.
    expect(shownSteps(1, 2)).toBe(1);
    expect(heldSteps(1, 2)).toBe(1);
    expect(heldSteps(2, 5)).toBe(3);
  });

  it('"Next step" lets one more through, at most the one that has not started yet', () => {
    expect(revealNext(1, 4)).toBe(2);
    expect(revealNext(2, 4)).toBe(3);
    // Pressed on the newest step: the next shows as soon as it starts…
    expect(revealNext(2, 2)).toBe(3);
    expect(shownSteps(3, 2)).toBe(2);
    expect(shownSteps(3, 3)).toBe(3);
    // …but pressing again does not run further ahead.
    expect(revealNext(3, 2)).toBe(3);
    expect(revealNext(1, 0)).toBe(2);
  });

  it('"Show all" catches up with every step there is, and paces the ones that follow', () => {
    expect(revealAll(5)).toBe(5);
    expect(heldSteps(revealAll(5), 5)).toBe(0);
    expect(heldSteps(revealAll(5), 6)).toBe(1);
    expect(revealAll(0)).toBe(1);
  });
});
