import type { ConfigDraft } from '../../state/setupStore.ts';
import { useAppStores } from '../../state/context.tsx';

/** Applies a pure edit (draftEdits.ts) to the current draft. */
export function useEditDraft(): (change: (draft: ConfigDraft) => ConfigDraft) => void {
  const { setup } = useAppStores();
  return (change) => setup.actions.setDraft(change(setup.getState().draft));
}
