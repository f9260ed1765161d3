import { describe, expect, it } from 'vitest';
import { readTau2Domain, readTau2Guidelines } from '../../cli/nodeTau2.ts';
import { loadBrowserDomain, loadBrowserGuidelines } from './browserTau2.ts';
import { TAU2_DOMAIN_NAMES } from './tau2/domains.ts';
import { TAU2_SUITE_NAMES, tau2DomainOfSuite } from './tau2/taskDomain.ts';
import { isTau2SuiteName, TAU2_SUITES } from './tau2/suiteNames.ts';

describe('the τ² and ToolScale domains as the browser loads them', () => {
  it.each(TAU2_DOMAIN_NAMES)('%s: the same domain the CLI reads from its folder', async (name) => {
    const bundled = await loadBrowserDomain(name);
    const fromFolder = readTau2Domain(name);
    expect(bundled.policy).toBe(fromFolder.policy);
    expect(bundled.tasks).toEqual(fromFolder.tasks);
    expect(bundled.agentTools).toEqual(fromFolder.agentTools);
    expect(bundled.userTools).toEqual(fromFolder.userTools);
    // The seeded databases (and telecom's phone) hash alike.
    const env = bundled.newEnvironment();
    const reference = fromFolder.newEnvironment();
    expect(await env.dbHash()).toBe(await reference.dbHash());
    expect(await env.userDbHash()).toBe(await reference.userDbHash());
  });

  it('τ²’s user simulator guidelines, the same as on disk', async () => {
    expect(await loadBrowserGuidelines()).toEqual(readTau2Guidelines());
  });

  it('an unknown domain is refused by name, not loaded as something else', async () => {
    await expect(loadBrowserDomain('airline' as never)).rejects.toThrow();
  });
});

describe('the suite names a page lists without loading a domain', () => {
  it('are the suites the domains themselves give, in the same order', () => {
    expect(TAU2_SUITES.map((suite) => suite.name)).toEqual([...TAU2_SUITE_NAMES]);
    for (const suite of TAU2_SUITES) expect(tau2DomainOfSuite(suite.name)).toBe(suite.domain);
  });

  it('tells a τ² suite from any other name', () => {
    expect(isTau2SuiteName('tau2-retail')).toBe(true);
    expect(isTau2SuiteName('toolscale-weather')).toBe(true);
    expect(isTau2SuiteName('retail')).toBe(false);
    expect(isTau2SuiteName('tau2-airline')).toBe(false);
  });
});
