// "Try the demo": scripts standing in for models (demoModels.ts), no endpoint, no key, no
// download. Its module loads only when a config names a `demo` provider.

import type { BackendKind } from '../../engine/backendKind.ts';

const SCRIPTS = 'is not used by the demo provider (its models are scripts: no endpoint, no key)';

export const demoKind: BackendKind = {
  kind: 'demo', title: 'the scripted demo', label: 'Scripted demo (not a model)', runsIn: 'both', onDevice: false,
  needs: { apiKey: false, connects: 'none' },
  setupNote: '“Try the demo”: scripts standing in for models, not models.',
  unusedFields: { baseUrl: SCRIPTS, apiKeyEnv: SCRIPTS, contextWindow: SCRIPTS, constrainToolCalls: SCRIPTS, models: SCRIPTS },
  needsPromptToolMode: 'the scripted demo orchestrator needs toolMode "prompt" (it writes its calls as text, as a local Orchestrator-8B does)',
  load: () => import('./demoModels.ts').then((module) => ({ create: (request) => ({ model: module.createDemoModel(request.model) }) })),
};
