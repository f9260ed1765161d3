import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTau2Domain, readTau2Guidelines } from '../../cli/nodeTau2.ts';
import { loadBrowserDomain, loadBrowserGuidelines } from './browserTau2.ts';
import { TAU2_DOMAIN_NAMES } from './tau2/domains.ts';
import { TAU2_SUITE_NAMES, tau2DomainOfSuite } from './tau2/taskDomain.ts';
import { isTau2SuiteName, TAU2_SUITES } from './tau2/suiteNames.ts';

// τ²'s airline runs on the user's database: here the generated one of the tests.
const AIRLINE_DB = path.resolve(import.meta.dirname, '../../e2e/fixtures/tau2/airline/db.json');
const userFiles = async () => ({ texts: { 'db.json': readFileSync(AIRLINE_DB, 'utf8') }, names: { 'db.json': 'db.json' } });

describe('the τ² and ToolScale domains as the browser loads them', () => {
  it.each(TAU2_DOMAIN_NAMES)('%s: the same domain the CLI reads from its folder', async (name) => {
    const bundled = await loadBrowserDomain(name, { userFiles });
    const fromFolder = readTau2Domain(name, { airlineDb: AIRLINE_DB });
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
    await expect(loadBrowserDomain('mock' as never)).rejects.toThrow();
  });

  it("τ²'s airline without the user's database: a clear error that says where to get it, from the browser and the CLI", async () => {
    await expect(loadBrowserDomain('airline')).rejects.toThrow("τ²-Bench's airline needs its database (db.json), which the playground does not ship: in Evaluate");
    await expect(loadBrowserDomain('airline', { userFiles: async () => null })).rejects.toThrow('choose τ²-Bench airline and give it the db.json of a τ²-Bench checkout');
    expect(() => readTau2Domain('airline')).toThrow('--airline-db <path to data/tau2/domains/airline/db.json in a τ²-Bench checkout>');
    expect(() => readTau2Domain('airline', { airlineDb: '/no/such/db.json' })).toThrow('Cannot read the airline database "/no/such/db.json": no such file.');
    const broken = { texts: { 'db.json': '{"flights": {}, "users": {}}' }, names: { 'db.json': 'my-db.json' } };
    await expect(loadBrowserDomain('airline', { userFiles: async () => broken })).rejects.toThrow(/^my-db\.json: 1 validation error for FlightDB\nreservations\n {2}Field required/);
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
    expect(isTau2SuiteName('tau2-airline')).toBe(true);
    expect(isTau2SuiteName('tau2-mock')).toBe(false);
  });
});
