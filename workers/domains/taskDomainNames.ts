// The domains a typed task can play in (the Task tab's picker, workers/hosts/taskDomain.ts), by
// name and label only: a page lists them, and History checks a stored run's domain, without
// loading any domain's data.

import { BUILT_IN_DOMAINS } from '../eval/builtInSuites.ts';
import { TAU2_SUITES } from './tau2/suiteNames.ts';

export interface TaskDomainGroup {
  label: string;
  options: Array<{ value: string; label: string }>;
}

export const TASK_DOMAIN_GROUPS: readonly TaskDomainGroup[] = [
  { label: 'Built in', options: BUILT_IN_DOMAINS.map((name) => ({ value: name, label: `${name[0]!.toUpperCase()}${name.slice(1)} (built in)` })) },
  ...['tau2', 'toolscale'].map((prefix) => {
    const suites = TAU2_SUITES.filter((suite) => suite.name.startsWith(`${prefix}-`));
    return { label: prefix === 'tau2' ? 'τ²-Bench' : 'ToolScale', options: suites.map((suite) => ({ value: suite.name, label: suite.label.split(':')[0]! })) };
  }),
];

/** A domain's label ("τ²-Bench retail"), or undefined for a name this playground does not have. */
export function taskDomainLabel(name: string): string | undefined {
  return TASK_DOMAIN_GROUPS.flatMap((group) => group.options).find((option) => option.value === name)?.label;
}
