// What a run needs from Node: API keys from environment variables, the local corpus retriever,
// the Pyodide Python runner, the QuickJS JavaScript runner and the calculator in a worker thread.
// Keys are read when a backend is built and never printed.

import { loadNodeCorpus } from '../tools/search/nodeCorpus.ts';
import { createCorpusRetriever } from '../tools/search/retriever.ts';
import { createNodePythonRunner } from '../tools/python/nodePythonRunner.ts';
import { createNodeJavaScriptRunner } from '../tools/javascript/nodeJavaScriptRunner.ts';
import { createNodeCalculatorRunner } from '../tools/calculator/nodeCalculatorRunner.ts';
import { type OrchestraConfig } from '../workers/engine/config.ts';
import { protocolExperts } from '../workers/engine/configExperts.ts';
import type { RunEnvironment } from '../workers/hosts/prepareRun.ts';
import { loadBackends } from '../workers/backends/registry.ts';

/** The providers a run of this configuration calls: the orchestrator's and its experts'. */
export function providersInUse(config: OrchestraConfig): string[] {
  const providers = protocolExperts(config).map(([, expert]) => expert.provider);
  return [...new Set([config.orchestrator.provider, ...providers])];
}

export interface MissingKey {
  provider: string;
  variable: string;
}

/** Providers in use that name a key variable which is unset or empty. */
export function missingKeys(config: OrchestraConfig, env: NodeJS.ProcessEnv): MissingKey[] {
  return providersInUse(config).flatMap((name) => {
    const variable = config.providers[name]?.apiKeyEnv;
    return variable !== undefined && !env[variable] ? [{ provider: name, variable }] : [];
  });
}

export function describeMissingKeys(missing: readonly MissingKey[]): string {
  return missing
    .map(
      ({ provider, variable }) =>
        `Provider "${provider}" reads its API key from the environment variable ${variable}, which is not set. ` +
        `Set it (export ${variable}=...) and run again.`,
    )
    .join('\n');
}

export interface NodeRunEnvironment {
  environment: RunEnvironment;
  /** Stops the Python and calculator workers so the process can exit. */
  dispose(): Promise<void>;
}

/** The CLI's environment: the local corpus (searches cost nothing) and Pyodide in a worker thread. */
export async function createNodeEnvironment(env: NodeJS.ProcessEnv): Promise<NodeRunEnvironment> {
  const documents = loadNodeCorpus();
  const python = createNodePythonRunner();
  const calculator = createNodeCalculatorRunner();
  return {
    environment: {
      apiKey: (_name, provider) => (provider.apiKeyEnv ? env[provider.apiKeyEnv] || undefined : undefined),
      retriever: createCorpusRetriever(documents),
      searchUsdPerCall: 0,
      python,
      javascript: createNodeJavaScriptRunner(),
      calculator,
      backends: await loadBackends(),
    },
    dispose: () => {
      calculator.dispose();
      return python.dispose();
    },
  };
}
