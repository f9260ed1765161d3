// Every backend kind, in the order the config schema lists them. A new kind is a folder beside
// these (its kind.ts: a BackendKind, workers/engine/backendKind.ts) and one line here
// (docs/configuration.md, "Providers").

import type { BackendKind, LoadedBackend } from '../engine/backendKind.ts';
import { anthropicKind } from './anthropic/kind.ts';
import { demoKind } from './demo/kind.ts';
import { ggufKind } from './gguf/kind.ts';
import { openAICompatibleKind } from './openai-compatible/kind.ts';
import { webLlmKind } from './webllm/kind.ts';

export const BACKEND_KINDS: readonly BackendKind[] = [openAICompatibleKind, anthropicKind, webLlmKind, ggufKind, demoKind];

/** The descriptor of a kind, or undefined for a name no kind has. */
export function backendKind(kind: string | undefined, kinds: readonly BackendKind[] = BACKEND_KINDS): BackendKind | undefined {
  return kinds.find((candidate) => candidate.kind === kind);
}

/** The model factories of these kinds (all of them by default), each module loaded once here. */
export async function loadBackends(names?: Iterable<string>, kinds: readonly BackendKind[] = BACKEND_KINDS): Promise<Map<string, LoadedBackend>> {
  const wanted = names === undefined ? kinds : [...new Set(names)].flatMap((name) => kinds.filter((kind) => kind.kind === name));
  return new Map(await Promise.all(wanted.map(async (kind) => [kind.kind, { kind, create: (await kind.load()).create }] as const)));
}
