// The τ²-Bench and ToolScale suites by name, with a line on each, for a page that lists them
// without loading any domain: names only (taskDomain.ts derives the same names from the domains
// themselves, and suiteNames.test.ts keeps the two lists equal).

/** ToolScale's ten domains: each is the suite toolscale-<domain>. */
const TOOLSCALE_DOMAINS = ['bank', 'basketball', 'ecommerce', 'medicine', 'movie', 'railway', 'restaurant', 'school', 'travel', 'weather'] as const;
type ToolScaleDomain = (typeof TOOLSCALE_DOMAINS)[number];

const toolScaleSuite = (domain: ToolScaleDomain) => ({
  name: `toolscale-${domain}` as const,
  domain,
  label: `ToolScale ${domain === 'ecommerce' ? 'e-commerce' : domain}`,
});

export const TAU2_SUITES = [
  { name: 'tau2-retail', domain: 'retail', label: 'τ²-Bench retail: orders, returns, exchanges (114 tasks, simulated user)' } as const,
  { name: 'tau2-telecom', domain: 'telecom', label: 'τ²-Bench telecom: lines, bills, the customer’s phone (114 tasks, simulated user)' } as const,
  { name: 'tau2-airline', domain: 'airline', label: 'τ²-Bench airline: bookings, changes, cancellations (50 tasks, simulated user; your db.json)' } as const,
  ...TOOLSCALE_DOMAINS.map(toolScaleSuite),
];

export type Tau2SuiteName = (typeof TAU2_SUITES)[number]['name'];

export function isTau2SuiteName(name: string): name is Tau2SuiteName {
  return TAU2_SUITES.some((suite) => suite.name === name);
}
