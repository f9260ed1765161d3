// The built-in domains' files for the browser, bundled as text (the worker loads this module with
// the first evaluation, so the first screen pays nothing for them). Node reads the same files
// from their folders (nodeDomains.ts).

import type { BuiltInDomain } from '../eval/builtInSuites.ts';
import type { DomainFiles } from './domain.ts';
import clinicDb from './clinic/db.json?raw';
import clinicManifest from './clinic/domain.json?raw';
import clinicPolicy from './clinic/policy.md?raw';
import clinicTasks from './clinic/tasks.jsonl?raw';
import clinicTools from './clinic/tools.js?raw';
import retailDb from './retail/db.json?raw';
import retailManifest from './retail/domain.json?raw';
import retailPolicy from './retail/policy.md?raw';
import retailTasks from './retail/tasks.jsonl?raw';
import retailTools from './retail/tools.js?raw';

export const BUILT_IN_DOMAIN_FILES: Record<BuiltInDomain, DomainFiles> = {
  retail: { manifest: retailManifest, policy: retailPolicy, db: retailDb, tools: retailTools, tasks: retailTasks },
  clinic: { manifest: clinicManifest, policy: clinicPolicy, db: clinicDb, tools: clinicTools, tasks: clinicTasks },
};
