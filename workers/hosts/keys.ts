// API keys bound to the endpoint they were entered for. A key is held (in the orchestrator
// worker's memory, and in localStorage only when the user chose to remember it) together with the
// origin of the provider's base URL at that moment. A run sends it only to that origin: when an
// imported config or an edit points the provider elsewhere, the key is held back and the user is
// asked, in Setup, whether to use it with the new origin. See docs/security.md.

import type { ProviderConfig } from '../engine/config.ts';
import { backendKind } from '../backends/registry.ts';

/** Which provider holds a key, and the origin it is bound to (null: remembered before keys were
 * bound to an origin, so bound to none). Crosses postMessage; never carries the key. */
export interface HeldKey {
  provider: string;
  origin: string | null;
}

/** The origin a provider's requests (and its key) go to, or undefined when its kind takes no key
 * (models in the browser, the scripted demo) or its base URL is not a URL yet. */
export function providerOrigin(provider: Pick<ProviderConfig, 'kind' | 'baseUrl'> | undefined): string | undefined {
  const needs = backendKind(provider?.kind)?.needs;
  if (!provider || !needs?.apiKey) return undefined;
  const url = provider.baseUrl ?? needs.defaultBaseUrl;
  if (!url) return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** Why a held key is not sent: in plain words, naming both origins and what to do. */
export function keyHeldBack(providerName: string, boundOrigin: string | null, newOrigin: string): string {
  const entered =
    boundOrigin === null
      ? `The key for "${providerName}" was remembered on this device before keys were tied to an address`
      : `The key for "${providerName}" was entered for ${boundOrigin}`;
  return (
    `${entered}, and this config sends ${providerName}'s requests to ${newOrigin}. The key was not sent. ` +
    `In Setup, under API keys, choose whether to use it with ${newOrigin}, enter another key, or forget it.`
  );
}

/** Thrown when a run would send a key to an origin it was not entered for. */
export class KeyOriginError extends Error {
  override name = 'KeyOriginError';
}

/** The keys the orchestrator worker holds, each with its origin. */
export class KeyRing {
  private readonly keys = new Map<string, { key: string; origin: string | null }>();

  set(provider: string, key: string, origin: string | null): void {
    this.keys.set(provider, { key, origin });
  }

  delete(provider: string): void {
    this.keys.delete(provider);
  }

  /** Moves a key to `to`, only if it is still bound to `from` (the origin the user was shown). */
  rebind(provider: string, from: string | null, to: string): boolean {
    const held = this.keys.get(provider);
    if (!held || held.origin !== from) return false;
    held.origin = to;
    return true;
  }

  held(): HeldKey[] {
    return [...this.keys].map(([provider, { origin }]) => ({ provider, origin }));
  }

  /** Every key, for redacting text that might contain one. */
  secrets(): string[] {
    return [...this.keys.values()].map((held) => held.key);
  }

  /** The key a run sends to this provider: undefined when none is held; a KeyOriginError when the
   * provider now points at another origin than the key's. */
  forRun(providerName: string, provider: ProviderConfig): string | undefined {
    const held = this.keys.get(providerName);
    if (!held) return undefined;
    const origin = providerOrigin(provider);
    if (origin === undefined) return undefined;
    if (held.origin !== origin) throw new KeyOriginError(keyHeldBack(providerName, held.origin, origin));
    return held.key;
  }
}
