import type { ReactNode } from 'react';
import { viewActions, type SideTab } from '../../state/viewStore.ts';

/** Opens one of the side tabs, from a sentence that names it. */
export function TabLink({ tab, children }: { tab: SideTab; children: ReactNode }) {
  return (
    <button type="button" className="link-button" onClick={() => viewActions.openSideTab(tab)}>
      {children}
    </button>
  );
}
