import { TASK_DOMAIN_GROUPS, taskDomainLabel } from '../../../workers/domains/taskDomainNames.ts';
import { Options } from './Options.tsx';

// The Task tab's domain picker, a chunk of its own loaded after the first screen (the list of
// domains is not first-load JavaScript; the worker loads a domain's data with its first run:
// workers/hosts/taskDomain.ts).

/** What a run in the chosen domain gets, under the protocol's choices. */
export function DomainNote({ domain }: { domain: string }) {
  const label = taskDomainLabel(domain) ?? domain;
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
        {TASK_DOMAIN_GROUPS.map((group) => (
          <optgroup key={group.label} label={group.label}>
            <Options items={group.options} />
          </optgroup>
        ))}
      </select>
    </label>
  );
}
