// Reading an imported config file without stalling the page: in a short-lived worker
// (configImport.worker.ts), as every file a person hands the page is read, so a hostile file
// (12,000 providers, deep nesting) never runs here, and a reader that hangs is ended.

import { askOnce, READ_TIMEOUT_MS } from './askOnce.ts';
import type { ConfigImportReply, ConfigImportRequests } from '../../workers/hosts/files/readConfig.ts';

export function readConfigText(text: string): Promise<ConfigImportReply> {
  return askOnce<ConfigImportRequests, 'read_config'>(
    () => new Worker(new URL('../../workers/hosts/files/configImport.worker.ts', import.meta.url), { type: 'module', name: 'config import' }),
    'read_config',
    { text },
    (why) => ({ ok: false, problems: [`the file could not be read (${why})`] }),
    { deadlineMs: READ_TIMEOUT_MS, doing: 'reading it' },
  );
}
