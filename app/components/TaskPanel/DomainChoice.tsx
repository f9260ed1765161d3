import { BUILT_IN_DOMAINS } from '../../../workers/eval/builtInSuites.ts';
import { TAU2_SUITES } from '../../../workers/domains/tau2/suiteNames.ts';

// The Task tab's domain picker, a chunk of its own loaded after the first screen (the list of
// domains is not first-load JavaScript).

/** The domains a typed task can play in, by group: names only (the worker loads a domain's data
 * with its first run: workers/hosts/taskDomain.ts). */
interface Group {
  label: string;
  options: Array<{ value: string; label: string }>;
}

const GROUPS: Group[] = [
  { label: 'Built in', options: BUILT_IN_DOMAINS.map((name) => ({ value: name, label: `${name[0]!.toUpperCase()}${name.slice(1)} (built in)` })) },
  ...['tau2', 'toolscale'].map((prefix) => {
    const suites = TAU2_SUITES.filter((suite) => suite.name.startsWith(`${prefix}-`));
    return { label: prefix === 'tau2' ? 'τ²-Bench' : 'ToolScale', options: suites.map((suite) => ({ value: suite.name, label: suite.label.split(':')[0]! })) };
  }),
];

/** What a run in the chosen domain gets, under the protocol's choices. */
export function DomainNote({ domain }: { domain: string }) {
  const label = GROUPS.flatMap((group) => group.options).find((option) => option.value === domain)?.label ?? domain;
  return <>{label}: its policy, its tools over a fresh copy of its database, function calling.</>;
}

/** The domain the task runs in: none (the config's protocol and tools), or a domain's policy,
 * tools and a fresh copy of its database. */
export function DomainChoice({ id, value, disabled, onChoose }: { id: string; value: string; disabled: boolean; onChoose(domain: string): void }) {
  return (
    <label className="task-sample task-domain" htmlFor={id}>
      <span>Domain</span>
      <select id={id} value={value} disabled={disabled} onChange={(event) => onChoose(event.target.value)}>
        <option value="">None</option>
        {GROUPS.map((group) => (
          <optgroup key={group.label} label={group.label}>
            {group.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}
