import type { ControlProps } from './Field.tsx';

/** Chooses one of the draft's providers; a name that is not defined stays listed, marked so. */
export function ProviderSelect({
  control,
  providers,
  value,
  onChange,
}: {
  control: ControlProps;
  providers: readonly string[];
  value: string;
  onChange: (provider: string) => void;
}) {
  const names = providers.includes(value) || value === '' ? providers : [value, ...providers];
  return (
    <select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
      {value === '' && <option value="">Choose a provider</option>}
      {names.map((name) => (
        <option key={name} value={name}>
          {providers.includes(name) ? name : `${name} (not defined)`}
        </option>
      ))}
    </select>
  );
}
