// Checking the config being edited needs zod, a fifth of what the first screen would otherwise
// load (docs/benchmarks.md, first-load JavaScript). Its chunk (draftChecker.ts) loads as soon as
// a panel that shows a check first renders; such panels suspend until then (a few milliseconds
// after the first paint). The preferences kept in this browser are checked by the same chunk, so
// they are read back when it arrives, before any panel that shows them renders.

import { use, useEffect, useMemo, useState } from 'react';
import type * as Checks from './draftChecker.ts';
import { hydratePreferences } from './preferencesStore.ts';
import type { ConfigDraft, DraftCheck } from './setupStore.ts';

let loading: Promise<typeof Checks> | undefined;
let loaded: typeof Checks | undefined;

/** The checks, loaded once; the kept preferences are read back before this resolves. */
export function loadDraftChecks(): Promise<typeof Checks> {
  loading ??= import('./draftChecker.ts').then((checks) => {
    hydratePreferences(checks.validatePreference);
    loaded = checks;
    return checks;
  });
  return loading;
}

/** The checks if they have loaded (right after the first screen), else undefined. */
export function loadedDraftChecks(): typeof Checks | undefined {
  return loaded;
}

/** The draft's check; suspends the calling component until the checks have loaded. */
export function useDraftCheck(draft: ConfigDraft): DraftCheck {
  const { checkDraft } = use(loadDraftChecks());
  return useMemo(() => checkDraft(draft), [checkDraft, draft]);
}

/** The checks once loaded, undefined before (re-rendering when they arrive): for a part of the
 * first screen that must not wait for them. */
export function useLoadedDraftChecks(): typeof Checks | undefined {
  const [checks, setChecks] = useState(loaded);
  useEffect(() => {
    if (!checks) void loadDraftChecks().then(setChecks);
  }, [checks]);
  return checks;
}
