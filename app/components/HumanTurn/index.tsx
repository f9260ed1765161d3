// "You are the orchestrator": the turn a manual run is waiting on. The person reads what the
// orchestrator would read (the same prompt, the same menu with each alias's prices and latency)
// and chooses a tool and an alias; for search and enhance_reasoning they may write the query or
// the code themselves instead of leaving it to the alias's expert.

import { useId, useState, type FormEvent } from 'react';
import type { HumanTurn } from '../../../workers/engine/types.ts';
import { Comparison } from './Comparison.tsx';
import './HumanTurn.css';
import { useComparisonStore, useRunStore, useSession } from '../../state/context.tsx';

const WRITE_LABEL = { query: 'Write the search query yourself', code: 'Write the Python yourself' } as const;

/** Manual mode: the turn waiting for the person, then the offer to let the orchestrator try the
 * same task, then the two runs compared. */
export function HumanTurnPanel() {
  const turn = useRunStore((state) => state.humanTurn);
  const step = useRunStore((state) => state.run?.steps.length ?? 0);
  const manualRunOver = useRunStore((state) => state.manual && state.phase === 'idle' && state.run?.status === 'finished');
  const comparing = useComparisonStore((state) => state.you !== null);
  // A new turn (or the same one asked again) starts a fresh form.
  if (turn) return <TurnForm key={`${turn.turnId}:${turn.problem ?? ''}`} step={step} />;
  if (comparing) return <Comparison />;
  if (manualRunOver) return <AfterYourRun />;
  return null;
}

function AfterYourRun() {
  const session = useSession();
  const id = useId();
  return (
    <section className="panel human-turn" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Your run is over</h2>
      <p>
        Now let the orchestrator take the same task with the same experts, prices and preference, and see the two routes side by
        side, each scored with the paper's reward.
      </p>
      <button type="button" className="primary" onClick={session.letOrchestratorTry}>
        Let the orchestrator try it
      </button>
    </section>
  );
}

function TurnForm({ step }: { step: number }) {
  const session = useSession();
  const turn = useRunStore((state) => state.humanTurn)!;
  const id = useId();
  const [toolName, setToolName] = useState<string | null>(null);
  const [alias, setAlias] = useState<string | null>(null);
  const [written, setWritten] = useState('');
  const tool = turn.menu.find((item) => item.name === toolName);
  const prompt = turn.messages.at(-1)?.content ?? '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!tool || !alias) return;
    const args: Record<string, unknown> = { model: alias };
    if (tool.writable && written.trim()) args[tool.writable] = written;
    session.chooseTurn({ name: tool.name, arguments: args });
  };

  return (
    <section className="panel human-turn" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Your turn{step > 0 ? ` — step ${step}` : ''}</h2>
      <p className="muted">
        You are the orchestrator: choose a tool and the model behind it, as Orchestrator-8B would from this menu. Its prices
        and latencies are the ones the model reads. The time you take to choose shows in the run’s time, but the reward’s
        latency term counts only the tools’ and models’ time: your thinking time is shown apart.
      </p>
      {turn.problem && (
        <p className="human-turn-problem" role="alert">
          {turn.problem}
        </p>
      )}
      <details className="human-turn-prompt">
        <summary>What the orchestrator would read this turn</summary>
        <pre>{prompt}</pre>
      </details>
      <form onSubmit={submit}>
        <fieldset>
          <legend>Tool</legend>
          {turn.menu.map((item) => (
            <label key={item.name} className="human-turn-option">
              <input
                type="radio"
                name={`${id}-tool`}
                value={item.name}
                checked={toolName === item.name}
                onChange={() => {
                  setToolName(item.name);
                  setAlias(null);
                  setWritten('');
                }}
              />
              <span>
                <strong>{item.name}</strong> <span className="muted">— {item.description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {tool && <AliasChoice name={`${id}-alias`} tool={tool} alias={alias} onChoose={setAlias} />}
        {tool?.writable && (
          <label className="human-turn-written">
            <span>
              {WRITE_LABEL[tool.writable]} <span className="muted">(optional: left empty, {alias ?? 'the model'} writes it)</span>
            </span>
            <textarea value={written} onChange={(event) => setWritten(event.target.value)} rows={tool.writable === 'code' ? 6 : 2} spellCheck={false} />
          </label>
        )}
        <button type="submit" className="primary" disabled={!tool || !alias}>
          {tool?.name === 'answer' ? 'Answer with this model' : 'Make this call'}
        </button>
      </form>
    </section>
  );
}

/** The models behind a tool, with what the orchestrator reads of each (prices, latency). */
function AliasChoice({ name, tool, alias, onChoose }: { name: string; tool: HumanTurn['menu'][number]; alias: string | null; onChoose(alias: string): void }) {
  return (
    <fieldset>
      <legend>Model for {tool.name}</legend>
      <div className="human-turn-aliases">
        {tool.aliases.map((row) => (
          <label key={row.alias} className="human-turn-alias">
            <input type="radio" name={name} value={row.alias} checked={alias === row.alias} onChange={() => onChoose(row.alias)} />
            <span>
              <strong>{row.alias}</strong>
              <span className="muted">
                {' '}
                in {row.inputPerM} · out {row.outputPerM} per M tokens · about {row.latency}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
