// A task the person types, run in a τ² or ToolScale domain (the Task tab's domain picker): no
// simulated user and no grading, just the domain's policy as the system prompt and its agent
// tools over a fresh environment of this run's own. Each call answers as τ²'s tool does (errors
// included) and reports the rows it changed, as the built-in domains' calls do
// (environment.ts's DomainToolDetail), for the trace. Pure TypeScript.

import type { DomainTools } from '../../engine/preparedRun.ts';
import type { Tool } from '../../engine/types.ts';
import type { LoadedTau2Domain } from './domains.ts';
import { tau2CallOf } from './rollout.ts';
import { respondWithChanges } from './rowChanges.ts';

/** The domain's policy and tools for one run; `label` names the domain in each call's detail. */
export function typedTaskTools(domain: LoadedTau2Domain, label: string): DomainTools & { tools: Tool[] } {
  const environment = domain.newEnvironment();
  let calls = 0;
  const tools = domain.agentTools.map(
    (schema): Tool => ({
      ...schema,
      checksOwnArguments: true,
      run: (args, context) => {
        const call = tau2CallOf({ id: context.call?.id ?? `call_${++calls}`, name: schema.name, arguments: args, origin: context.call?.origin ?? 'server', ...(context.call?.raw === undefined ? {} : { raw: context.call.raw }) });
        const { message, detail } = respondWithChanges(environment, call, label);
        return Promise.resolve({ content: message.content ?? '', isError: message.error, costUsd: 0, detail });
      },
    }),
  );
  return { system: domain.policy, tools };
}
