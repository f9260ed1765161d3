/** A table's head: one column header per name, in order ('' for an empty corner cell). */
export function ColumnHeads({ names }: { names: readonly string[] }) {
  return (
    <thead>
      <tr>
        {names.map((name, i) => (
          <th key={`${i}-${name}`} scope="col">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
