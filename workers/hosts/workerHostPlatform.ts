/// <reference lib="webworker" />
// What the orchestrator host gets in the browser's orchestrator worker (orchestratorHost.ts,
// HostPlatform): each sandbox in a worker of its own, the app's generated files fetched from its
// origin, the documents the documents worker keeps in IndexedDB, and the domains' files as chunks.

import { createBrowserCalculatorRunner } from '../../tools/calculator/browserCalculatorRunner.ts';
import { createBrowserJavaScriptRunner } from '../../tools/javascript/browserJavaScriptRunner.ts';
import { createBrowserPythonRunner } from '../../tools/python/browserPythonRunner.ts';
import { createDocumentRetriever } from '../../tools/search/documentRetriever.ts';
import { openDocumentStore } from './documents/documentsDb.ts';
import type { FromWorker } from './messages.ts';
import type { HostPlatform } from './orchestratorHost.ts';

declare const self: DedicatedWorkerGlobalScope;

export function workerHostPlatform(post: (message: FromWorker) => void): HostPlatform {
  return {
    post,
    python: createBrowserPythonRunner(),
    javascript: createBrowserJavaScriptRunner(),
    calculator: createBrowserCalculatorRunner(),
    generated: <T>(name: string, what: string) =>
      fetch(new URL(`${import.meta.env.BASE_URL}generated/${name}`, self.location.origin)).then((response) => {
        if (!response.ok) throw new Error(`${what} could not be loaded (HTTP ${response.status}).`);
        return response.json() as Promise<T>;
      }),
    // The documents worker stores their passages in IndexedDB; this index is rebuilt from there
    // whenever the store's revision moves.
    documents: createDocumentRetriever(() => openDocumentStore()),
    // τ²'s and ToolScale's files come from the browser catalogue, each a chunk.
    tau2Domain: (name) => import('../domains/browserTau2.ts').then(({ loadBrowserDomain }) => loadBrowserDomain(name)),
  };
}
