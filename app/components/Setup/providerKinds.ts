// What Setup shows for a provider, read from its backend kind's descriptor (workers/backends/
// registry.ts), never from the kind's name: whether it takes a key, where its requests go, what
// to call it. A kind added to the registry gets its fields here with no change in app/.

import { BACKEND_KINDS, backendKind } from '../../../workers/backends/registry.ts';
import type { ConfigDraft } from '../../state/setupStore.ts';

type ProviderDraft = ConfigDraft['providers'][string];
/** A registry's kinds: BACKEND_KINDS unless a test adds its own. */
type Kinds = typeof BACKEND_KINDS;

/** The kinds a person can pick, in the registry's order. */
export function kindChoices(kinds: Kinds = BACKEND_KINDS): Array<{ value: string; label: string }> {
  return kinds.map((kind) => ({ value: kind.kind, label: kind.label }));
}

/** The providers whose key Setup asks for: those whose kind sends one (not a kind whose models run
 * in this browser, nor the demo, nor a kind no registry knows). */
export function keyedProviders(providers: Readonly<Record<string, Pick<ProviderDraft, 'kind'>>>, kinds: Kinds = BACKEND_KINDS): string[] {
  return Object.entries(providers)
    .filter(([, provider]) => backendKind(provider.kind, kinds)?.needs.apiKey === true)
    .map(([name]) => name);
}

/** Where a provider's requests go, as Setup shows it: a base URL field with an example address
 * (marked as the default where the kind has one), or, for a kind that connects to nobody, a note. */
export type Endpoint = { field: true; placeholder: string } | { field: false; note: string | undefined };

export function endpointOf(provider: Pick<ProviderDraft, 'kind'>, kinds: Kinds = BACKEND_KINDS): Endpoint {
  const kind = backendKind(provider.kind, kinds);
  if (kind?.needs.connects !== 'base-url') return { field: false, note: kind?.setupNote };
  const example = kind.needs.exampleBaseUrl ?? '';
  return { field: true, placeholder: kind.needs.defaultBaseUrl ? `${example} (default)` : example };
}

/** A new provider of this kind: with the example base URL when the kind requires one. */
export function freshProvider(kind: string, kinds: Kinds = BACKEND_KINDS): ProviderDraft {
  const found = backendKind(kind, kinds);
  const baseUrl = found?.requiredFields?.baseUrl ? found.needs.exampleBaseUrl : undefined;
  return baseUrl === undefined ? { kind } : { kind, baseUrl };
}
