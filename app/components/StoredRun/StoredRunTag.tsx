import { useRunStore } from '../../state/context.tsx';
// "Replay" / "Recorded" beside a panel's title while the run shown comes from history, so no
// panel of a recording can pass for a live run (a screenshot of one panel included).


export function StoredRunTag() {
  const mode = useRunStore((state) => state.stored?.mode ?? null);
  if (!mode) return null;
  return <span className="stored-run-tag">{mode === 'replay' ? 'Replay' : 'Recorded'}</span>;
}
