import type { ReactNode } from 'react';
import { type SideTab } from '../../state/viewStore.ts';
import { useViewActions } from '../../state/context.tsx';

/** Opens one of the side tabs, from a sentence that names it. */
export function TabLink({ tab, children }: { tab: SideTab; children: ReactNode }) {
  const viewActions = useViewActions();
  return (
    <button type="button" className="link-button" onClick={() => viewActions.openSideTab(tab)}>
      {children}
    </button>
  );
}
