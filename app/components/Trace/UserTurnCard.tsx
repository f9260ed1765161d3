// The simulated user's turns of one step of a τ² conversation, each its own card beside the
// orchestrator's step cards and styled like them: what the user said (or did on its phone), the
// stop signal it gave, its tokens and its cost, which the ledger keeps apart from the agent's.
// Loaded with the first step that has one (StepList.tsx), so other runs never pay for it.

import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { clipForDisplay, formatCount } from '../../format.ts';
import type { UserTurnView } from '../../state/runView.ts';
import { useRunStore } from '../../state/context.tsx';
import { SHOWN_USER_CALLS, stopSignalOf, userTurnCost, userTurnsBefore, userTurnSummary, userTurnTokens } from './userTurn.ts';

const NONE: UserTurnView[] = [];

/** The user's turns of step `index` said before its orchestrator turn (the opening) or after it. */
export default function UserTurnCards({ index, before }: { index: number; before: boolean }) {
  const turns = useRunStore(useShallow((state) => (state.run?.steps[index]?.userTurns ?? NONE).filter((turn) => Boolean(turn.beforeAgent) === before)));
  // Numbered across the conversation: every turn of the earlier steps, and this step's opening.
  const first = useRunStore((state) => {
    const steps = state.run?.steps ?? [];
    const opening = before ? 0 : (steps[index]?.userTurns ?? NONE).filter((turn) => turn.beforeAgent).length;
    return userTurnsBefore(steps, index) + opening + 1;
  });
  return turns.map((turn, i) => <UserTurnCard key={i} turn={turn} number={first + i} position={before ? 'before' : 'after'} />);
}

function UserTurnCard({ turn, number, position }: { turn: UserTurnView; number: number; position: 'before' | 'after' }) {
  const headingId = useId();
  const signal = stopSignalOf(turn);
  return (
    <article className={`step user-turn ${position}`} aria-labelledby={headingId} data-user-turn={number}>
      <header className="step-header">
        <h3 className="step-title user-turn-title" id={headingId}>
          <span className="step-number">User turn {number}</span> <span className="step-summary">{userTurnSummary(turn)}</span>
        </h3>
        {signal ? (
          <span className="status-badge user-stop" title="The user ended the conversation">
            {signal}
          </span>
        ) : null}
        <dl className="step-metrics">
          <div className="metric">
            <dt>Tokens</dt>
            <dd>{userTurnTokens(turn)}</dd>
          </div>
          <div className={`metric${turn.model !== null && turn.costUsd === null ? ' unknown' : ''}`}>
            <dt>User cost</dt>
            <dd>{userTurnCost(turn)}</dd>
          </div>
        </dl>
      </header>
      <div className="step-body">
        {turn.content ? (
          <div className="step-message">
            <span className="section-label">Message</span>
            <p>{clipForDisplay(turn.content)}</p>
          </div>
        ) : null}
        {turn.toolCalls.slice(0, SHOWN_USER_CALLS).map((call, i) => (
          <div key={i} className={`user-turn-call${call.error ? ' failed' : ''}`}>
            <span className="section-label">On the user’s phone</span> <code>{call.name}</code>{' '}
            <code className="user-turn-args">{clipForDisplay(JSON.stringify(call.arguments))}</code>
            <pre aria-label={`Result of ${call.name}`}>{clipForDisplay(call.result)}</pre>
          </div>
        ))}
        {turn.toolCalls.length > SHOWN_USER_CALLS ? (
          <p className="user-turn-more">
            …and {formatCount(turn.toolCalls.length - SHOWN_USER_CALLS)} more calls on the user’s phone, not shown (a turn may make {SHOWN_USER_CALLS}).
          </p>
        ) : null}
        <footer className="turn-footer">
          <span className="turn-facts">
            <span className="section-label">Simulated user</span> {turn.model ?? 'scripted (no model)'} · not in the reward’s cost
          </span>
        </footer>
      </div>
    </article>
  );
}
