// The τ²-Bench and ToolScale suites by name, with a line on each, for a page that lists them
// without loading any domain: names only (taskDomain.ts derives the same names from the domains
// themselves, and suiteNames.test.ts keeps the two lists equal).

export const TAU2_SUITES = [
  { name: 'tau2-retail', domain: 'retail', label: 'τ²-Bench retail: orders, returns, exchanges (114 tasks, simulated user)' },
  { name: 'tau2-telecom', domain: 'telecom', label: 'τ²-Bench telecom: lines, bills, the customer’s phone (114 tasks, simulated user)' },
  { name: 'toolscale-bank', domain: 'bank', label: 'ToolScale bank' },
  { name: 'toolscale-basketball', domain: 'basketball', label: 'ToolScale basketball' },
  { name: 'toolscale-ecommerce', domain: 'ecommerce', label: 'ToolScale e-commerce' },
  { name: 'toolscale-medicine', domain: 'medicine', label: 'ToolScale medicine' },
  { name: 'toolscale-movie', domain: 'movie', label: 'ToolScale movie' },
  { name: 'toolscale-railway', domain: 'railway', label: 'ToolScale railway' },
  { name: 'toolscale-restaurant', domain: 'restaurant', label: 'ToolScale restaurant' },
  { name: 'toolscale-school', domain: 'school', label: 'ToolScale school' },
  { name: 'toolscale-travel', domain: 'travel', label: 'ToolScale travel' },
  { name: 'toolscale-weather', domain: 'weather', label: 'ToolScale weather' },
] as const;

export type Tau2SuiteName = (typeof TAU2_SUITES)[number]['name'];

export function isTau2SuiteName(name: string): name is Tau2SuiteName {
  return TAU2_SUITES.some((suite) => suite.name === name);
}
