import { formatMs } from '../../format.ts';
import type { RetryView } from '../../state/runView.ts';
import { secondsLeft } from './summary.ts';
import { useNow } from '../../hooks/useNow.ts';

interface RetryNoticeProps {
  retry: RetryView;
  /** The run's start (ISO), which `retry.t` counts from. */
  runStartedAt: string;
  /** This is the latest retry of something still running: count down to it. */
  live: boolean;
}

export function RetryNotice({ retry, runStartedAt, live }: RetryNoticeProps) {
  const deadline = Date.parse(runStartedAt) + retry.t + retry.waitMs;
  const now = useNow(live ? 250 : null);
  const left = live ? secondsLeft(deadline, now) : 0;
  return (
    <p className="trace-retry">
      <span className="trace-retry-reason">Attempt {retry.attempt} failed: {retry.reason}.</span>{' '}
      {left > 0 ? (
        <span role="timer">Retrying in {left} s</span>
      ) : live ? (
        <span>Retrying…</span>
      ) : (
        <span className="muted">Retried after {formatMs(retry.waitMs)}.</span>
      )}
    </p>
  );
}
