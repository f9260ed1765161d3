// A test-only backend kind, added the way every kind is (docs/configuration.md, "Providers"): this
// folder and one line in a registry; registry.test.ts lists it beside the real ones. An `echo`
// provider's models answer with the last user message, with no endpoint, no key and no network.
// Production code never imports it.

import type { BackendKind } from '../../engine/backendKind.ts';

const NO_ENDPOINT = 'is not used by an echo provider (it answers from the request itself)';

export const echoKind: BackendKind = {
  kind: 'echo', title: 'an echo provider', label: 'Echo (test only)', runsIn: 'both', onDevice: true,
  needs: { apiKey: false, connects: 'none' },
  setupNote: 'Its models answer with your last message: no endpoint, no key.',
  unusedFields: { baseUrl: NO_ENDPOINT, apiKeyEnv: NO_ENDPOINT },
  needsPromptToolMode: 'an echo orchestrator needs toolMode "prompt" (it takes no tools)',
  load: () => import('./echoModels.ts').then((module) => module.echoModels),
};
