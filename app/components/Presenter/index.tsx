// Presenter view, for projecting to a class: with a run on screen the question large on top, the
// trace paced step by step (app/state/pacing.ts) and the cost chart beside it, no side column, text
// of 24 px and more (Presenter.css; e2e/projector.spec.ts checks it at 1920 × 1080 and 1280 × 720). Loaded only while it is on; the toggle
// (PresenterToggle.tsx) is all of it in the first load.

import { useEffect } from 'react';
import { typesText } from '../../keyboard.ts';
import './Presenter.css';
import { useAppStores, useViewActions } from '../../state/context.tsx';

/**
 * Puts the page in presenter view while mounted, and makes Space the next step wherever a field
 * does not take it. On a button too: a presenter's Space must not press the Run (or any other)
 * button that kept focus after a click; buttons still answer Enter.
 */
export function PresenterMode() {
  const viewActions = useViewActions();
  const stores = useAppStores();
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.presenter = '';
    const isSpace = (event: KeyboardEvent) =>
      event.key === ' ' && !event.ctrlKey && !event.metaKey && !event.altKey && stores.run.getState().run !== null && !(event.target instanceof Element && typesText(event.target));
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSpace(event)) return;
      event.preventDefault();
      if (!event.repeat) viewActions.revealNextStep();
    };
    // A button is pressed on Space's key-up: cancelled too.
    const onKeyUp = (event: KeyboardEvent) => {
      if (isSpace(event)) event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('keyup', onKeyUp, true);
    return () => {
      delete root.dataset.presenter;
      window.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('keyup', onKeyUp, true);
    };
  }, [stores, viewActions]);
  return null;
}

export { PresenterOutcome } from './PresenterOutcome.tsx';
export { PresenterQuestion } from './PresenterQuestion.tsx';
