/** The problems of one field, announced as they change; always in the page so
 * `aria-describedby` can point at it. */
export function ProblemList({ id, problems }: { id: string; problems: readonly string[] }) {
  return (
    <ul id={id} className="tool-problems" aria-live="polite">
      {problems.map((problem) => (
        <li key={problem}>{problem}</li>
      ))}
    </ul>
  );
}
