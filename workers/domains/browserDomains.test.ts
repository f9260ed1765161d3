import { describe, expect, it } from 'vitest';
import { BUILT_IN_DOMAINS } from '../eval/builtInSuites.ts';
import { BUILT_IN_DOMAIN_FILES } from './browserDomains.ts';
import { parseDomain } from './domain.ts';
import { builtInDomainDir, loadDomainDir } from '../../cli/nodeDomains.ts';

describe('the built-in domains as the browser bundles them', () => {
  it.each(BUILT_IN_DOMAINS)('%s: the same domain the CLI reads from its folder', (name) => {
    const bundled = parseDomain(BUILT_IN_DOMAIN_FILES[name], `builtin:${name}`);
    const { tasks, ...fromFolder } = loadDomainDir(builtInDomainDir(name));
    const { tasks: bundledTasks, ...rest } = bundled;
    expect(rest).toEqual(fromFolder);
    expect(bundledTasks).toEqual(tasks);
  });
});
