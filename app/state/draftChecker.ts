// The checks that need the engine's schema library (zod): a config draft the way the worker and
// the CLI will check it, and a preference vector kept in this browser (a config
// file is read in a worker: app/worker/configImport.ts). Loaded right after the
// first screen, never with it (draftCheck.ts).

import { ConfigError } from '../../workers/engine/config.ts';
import { parseConfig } from '../../workers/hosts/config.ts';
import { validatePreference } from '../../workers/engine/preferenceSchema.ts';
import type { ConfigDraft, DraftCheck } from './setupStore.ts';

/** Validates a draft the way the worker and the CLI will. */
export function checkDraft(draft: ConfigDraft): DraftCheck {
  try {
    return { ok: true, config: parseConfig(draft) };
  } catch (error) {
    if (error instanceof ConfigError) return { ok: false, problems: error.problems };
    return { ok: false, problems: [(error as Error).message] };
  }
}

export { validatePreference };
