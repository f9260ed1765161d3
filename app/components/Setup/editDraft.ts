import { setupActions, useSetupStore, type ConfigDraft } from '../../state/setupStore.ts';

/** Applies a pure edit (draftEdits.ts) to the current draft. */
export function editDraft(change: (draft: ConfigDraft) => ConfigDraft): void {
  setupActions.setDraft(change(useSetupStore.getState().draft));
}
