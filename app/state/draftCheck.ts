// Checking the config being edited needs zod, a fifth of what the first screen would otherwise
// load (docs/benchmarks.md, first-load JavaScript). Its chunk (draftChecker.ts) loads as soon as
// a panel that shows a check first renders; such panels suspend until then (a few milliseconds
// after the first paint). The preferences kept in this browser are checked by the same chunk, so
// they are read back when it arrives, before any panel that shows them renders. The hooks that
// read it are in context.tsx.

import type * as Checks from './draftChecker.ts';
import type { PreferencesStore } from './preferencesStore.ts';

export type DraftChecker = typeof Checks;

/** The checks of one set of stores (appStores.ts), loaded once. */
export class DraftChecks {
  private loading: Promise<DraftChecker> | undefined;
  private checks: DraftChecker | undefined;

  constructor(private readonly preferences: PreferencesStore) {}

  /** The checks, loaded once; the kept preferences are read back before this resolves. */
  load = (): Promise<DraftChecker> => {
    this.loading ??= import('./draftChecker.ts').then((checks) => {
      this.preferences.hydrate(checks.validatePreference);
      this.checks = checks;
      return checks;
    });
    return this.loading;
  };

  /** The checks if they have loaded (right after the first screen), else undefined. */
  loaded = (): DraftChecker | undefined => this.checks;
}
