// The built-in tools' names, apart from their code: configs are checked against them
// (workers/hosts/config.ts) also by hosts that must never load a tool, such as `orchestra replay`.
// tools/registry.test.ts keeps this list equal to the registry's descriptors, in their order.

export const TOOL_NAMES: readonly string[] = ['search_corpus', 'run_python', 'run_javascript', 'calculator'];
