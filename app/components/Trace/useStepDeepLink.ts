import { useEffect, useRef } from 'react';
import type { RunStore } from '../../state/runStore.ts';
import { useAppStores, useRunStore } from '../../state/context.tsx';
import { parseStepHash, type TraceUiStore } from './traceUiStore.ts';
import { useTraceUiStore } from './useTraceUi.ts';

/**
 * `#step-3` in the address opens step 3 and moves focus to it: at once if the step is there,
 * or as soon as it streams in during the current run.
 */
export function useStepDeepLink(stepCount: number): void {
  const wanted = useRef<number | null>(null);
  const { run } = useAppStores();
  const traceUi = useTraceUiStore();

  useEffect(() => {
    const onHashChange = () => {
      wanted.current = parseStepHash(window.location.hash);
      wanted.current = reveal(run, traceUi, wanted.current);
    };
    onHashChange();
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [run, traceUi]);

  useEffect(() => {
    if (stepCount > 0) wanted.current = reveal(run, traceUi, wanted.current);
  }, [stepCount, run, traceUi]);

  // A link left in the address from an earlier run must not pull focus into a new one (out of the
  // task box, off Stop): a new run forgets what was still wanted.
  const runId = useRunStore((state) => state.run?.runId);
  useEffect(() => {
    wanted.current = null;
  }, [runId]);
}

/** Opens and focuses `step` if the run has it; returns what is still to be revealed. */
function reveal(run: RunStore, traceUi: TraceUiStore, step: number | null): number | null {
  if (step === null) return null;
  if (!run.getState().run?.steps.some((s) => s.step === step)) return step;
  traceUi.actions.setExpanded(step, true);
  traceUi.actions.focus(step);
  return null;
}
