// The suites every host has built in: the multi-hop questions over the local corpus and each
// built-in domain's tasks. Names only, so the page can list them without loading any of them.

export const BUILT_IN_DOMAINS = ['retail', 'clinic'] as const;
export type BuiltInDomain = (typeof BUILT_IN_DOMAINS)[number];

export const BUILT_IN_SUITES = ['corpus', ...BUILT_IN_DOMAINS] as const;
export type BuiltInSuite = (typeof BUILT_IN_SUITES)[number];

export function isBuiltInDomain(name: string): name is BuiltInDomain {
  return (BUILT_IN_DOMAINS as readonly string[]).includes(name);
}
