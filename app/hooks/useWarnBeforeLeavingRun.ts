import { useEffect } from 'react';
import { useRunStore } from '../state/context.tsx';

/** While a run goes, closing or reloading the tab asks first: leaving stops the run, and its
 * in-flight calls may already be billed. */
export function useWarnBeforeLeavingRun(): void {
  const running = useRunStore((state) => state.phase !== 'idle');
  useEffect(() => {
    if (!running) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [running]);
}
