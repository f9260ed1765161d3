// Before an evaluation's first rollout is paid for (issue 24, item 4): every endpoint the chosen
// policies will call is asked once, cheaply, whether it is there, and every model they need in
// this browser whether it is loaded. One that is not refuses the start, saying which and what to
// do, instead of failing a hundred rollouts one by one. The scripted demo calls nobody: nothing
// to check.

import type { OrchestraConfig, ProviderConfig } from '../engine/config.ts';
import { CALL_EXPERT_TOOL } from '../engine/configBasics.ts';
import { protocolExperts, resolveExperts } from '../engine/configExperts.ts';
import { pickExpert } from '../eval/policies/alone/alone.ts';
import type { PolicySpec } from '../eval/policy.ts';
import type { RunFactory } from '../eval/ports.ts';
import { backendKind } from '../backends/registry.ts';
import type { RunEnvironment } from './prepareRun.ts';

/** How long an endpoint may take to answer the check. */
export const ENDPOINT_CHECK_MS = 5000;

/** A provider and model the policies call, with who calls it ("the orchestrator", "alias answer-1"). */
interface Use {
  provider: string;
  model: string;
  who: string;
}

/** Who each policy calls: the orchestrator and its experts, or the one expert answering alone. */
export function usesOf(config: OrchestraConfig, specs: readonly PolicySpec[], runs: RunFactory, hasDomainTasks: boolean): Use[] {
  const experts = (of: OrchestraConfig): Use[] => {
    const all = Object.entries(resolveExperts(of));
    const called = [...protocolExperts(of), ...(hasDomainTasks ? all.filter(([, e]) => e.tool === CALL_EXPERT_TOOL) : [])];
    return called.map(([alias, expert]) => ({ provider: expert.provider, model: expert.model, who: `alias ${alias}` }));
  };
  const orchestrator = (provider: string, model: string): Use => ({ provider, model, who: 'the orchestrator' });
  const uses = specs.flatMap((spec): Use[] => {
    if (spec.kind === 'strongest' || spec.kind === 'cheapest') {
      const [alias, expert] = pickExpert(config, spec.kind, runs.pricing(config));
      return [{ provider: expert.provider, model: expert.model, who: `alias ${alias} (${spec.kind} alone)` }];
    }
    if (spec.kind === 'random') return experts(config);
    if (spec.kind === 'qwen3') return [orchestrator(spec.provider ?? '', spec.model ?? ''), ...experts(config)];
    return [orchestrator(config.orchestrator.provider, config.orchestrator.model), ...experts(config)];
  });
  const judge = config.evaluation?.judge;
  if (judge) uses.push({ provider: judge.provider, model: judge.model, who: 'the judge' });
  return uses;
}

/** The request that asks a provider's endpoint whether it is there, when its kind says how. */
function probeOf(provider: ProviderConfig): { baseUrl: string; url: string; headers?: Record<string, string> } | undefined {
  const needs = backendKind(provider.kind)?.needs;
  const baseUrl = provider.baseUrl ?? needs?.defaultBaseUrl;
  if (needs?.connects !== 'base-url' || !needs.probe || !baseUrl) return undefined;
  return { baseUrl, ...needs.probe(baseUrl) };
}

function list(words: readonly string[]): string {
  const unique = [...new Set(words)];
  return unique.length <= 1 ? (unique[0] ?? '') : `${unique.slice(0, -1).join(', ')} and ${unique.at(-1)}`;
}

const WHAT_TO_DO = 'Nothing was run. Fix it in Setup (or Models), or press “Try the demo” on the Task tab for the scripted demo, which needs no endpoint.';

/**
 * Asks each endpoint once (the kind's probe, a GET of its models: any answer counts, a 401 too)
 * and looks each in-browser model up. Resolves with the problems in words, none when all are
 * there. The GET is a CORS request, as the rollouts' calls are: a server that does not let this
 * page read it would fail them too (the page is cross-origin isolated, so an opaque no-cors
 * reply is refused anyway).
 */
export async function checkEndpoints(config: OrchestraConfig, uses: readonly Use[], environment: Pick<RunEnvironment, 'localModel' | 'fetch'>, signal: AbortSignal): Promise<string[]> {
  const byUrl = new Map<string, { baseUrl: string; headers?: Record<string, string>; providers: string[]; who: string[] }>();
  const problems: string[] = [];
  for (const use of uses) {
    const provider = config.providers[use.provider];
    if (!provider) continue; // The config's schema names a missing provider already.
    const kind = backendKind(provider.kind);
    if (kind?.onDevice && environment.localModel) {
      try {
        environment.localModel(use.model, use.provider, provider);
      } catch (error) {
        problems.push(`For ${use.who} (${use.provider}: ${use.model}): ${(error as Error).message}`);
      }
      continue;
    }
    const probe = probeOf(provider);
    if (!probe) continue;
    const entry = byUrl.get(probe.url) ?? { baseUrl: probe.baseUrl, ...(probe.headers ? { headers: probe.headers } : {}), providers: [], who: [] };
    entry.providers.push(use.provider);
    entry.who.push(use.who);
    byUrl.set(probe.url, entry);
  }
  const doFetch = environment.fetch ?? globalThis.fetch.bind(globalThis);
  const unreachable = await Promise.all(
    [...byUrl].map(async ([url, { baseUrl, headers, providers, who }]) => {
      const timeout = AbortSignal.timeout(ENDPOINT_CHECK_MS);
      try {
        const response = await doFetch(url, { credentials: 'omit', cache: 'no-store', ...(headers ? { headers } : {}), signal: AbortSignal.any([signal, timeout]) });
        await response.body?.cancel();
        return null;
      } catch {
        if (signal.aborted) return null;
        const why = timeout.aborted
          ? `did not answer within ${ENDPOINT_CHECK_MS / 1000} s`
          : 'could not be reached from this page (nothing answers there, or the server does not allow this page’s address: CORS)';
        const named = list([...new Set(providers)].map((p) => `“${p}”`));
        return `The endpoint ${baseUrl} (provider${new Set(providers).size === 1 ? '' : 's'} ${named}), which ${list(who)} call${new Set(who).size === 1 ? 's' : ''}, ${why}.`;
      }
    }),
  );
  problems.push(...unreachable.filter((line): line is string => line !== null));
  return problems.length === 0 ? [] : [...problems, WHAT_TO_DO];
}
