import { useEffect, useRef, type RefObject } from 'react';
import { typesText } from '../../keyboard.ts';
import { neighbourStep } from './traceUiStore.ts';
import { useTraceUiStore } from './useTraceUi.ts';
import { useAppStores } from '../../state/context.tsx';

/**
 * j / k move focus between steps (from inside the trace, or when nothing on the page has focus),
 * Enter on a focused step opens or closes it, Esc inside a step closes it and focuses the step.
 */
export function useTraceKeyboard(sectionRef: RefObject<HTMLElement | null>, shownSteps: number): void {
  const stores = useAppStores();
  const traceUi = useTraceUiStore();
  // j/k stay among the steps on screen (presenter view holds some back).
  const shown = useRef(shownSteps);
  useEffect(() => {
    shown.current = shownSteps;
  }, [shownSteps]);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const section = sectionRef.current;
      if (!section) return;
      const target = event.target instanceof Element ? event.target : null;
      const inTrace = target !== null && section.contains(target);
      const nowhere = target === null || target === document.body || target === document.documentElement;
      if ((!inTrace && !nowhere) || (target && typesText(target))) return;

      if (event.key === 'j' || event.key === 'k') {
        const steps = stores.run.getState().run?.steps.slice(0, shown.current).map((step) => step.step) ?? [];
        const next = neighbourStep(steps, traceUi.getState().focusedStep, event.key === 'j' ? 1 : -1);
        if (next === null) return;
        event.preventDefault();
        traceUi.actions.focus(next);
        return;
      }
      const article = target?.closest<HTMLElement>('article[data-step]');
      const step = article ? Number(article.dataset.step) : NaN;
      if (!inTrace || !Number.isInteger(step)) return;
      if (event.key === 'Enter' && target === article) {
        event.preventDefault();
        traceUi.actions.toggle(step);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        traceUi.actions.setExpanded(step, false);
        traceUi.actions.focus(step);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [sectionRef, stores, traceUi]);
}
