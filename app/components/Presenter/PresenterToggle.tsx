import { useEffect } from 'react';
import { typesText } from '../../keyboard.ts';
import { useAppStores, useViewActions, useViewStore } from '../../state/context.tsx';

/** The header's switch to presenter view (also the P key, outside text fields). The view itself
 * (index.tsx) loads only when it is on. */
export function PresenterToggle() {
  const viewActions = useViewActions();
  const stores = useAppStores();
  const presenter = useViewStore((state) => state.presenter);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.key.toLowerCase() !== 'p') return;
      if (event.target instanceof Element && typesText(event.target)) return;
      event.preventDefault();
      viewActions.setPresenter(!stores.view.getState().presenter);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [stores, viewActions]);
  return (
    <button
      type="button"
      className="small presenter-toggle"
      aria-pressed={presenter}
      aria-keyshortcuts="P"
      title="Large type and the trace step by step, for projecting (P)"
      onClick={() => viewActions.setPresenter(!presenter)}
    >
      Presenter view
    </button>
  );
}
