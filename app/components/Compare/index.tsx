// Runs side by side: where their routes part, what each step and each run cost and took, their
// answers, and the paper's reward and advantage of each under a preference chosen here.

import { useMemo, useState } from 'react';
import { PREFERENCE_PRESETS, type PreferencePresetName, type PreferenceVector } from '../../../workers/engine/preferences.ts';
import { clipTitle, formatCount, formatMs, formatUsd } from '../../format.ts';
import { statesAnswer } from '../HumanTurn/compareRuns.ts';
import { useSampleTasks } from '../TaskPanel/useSampleTasks.ts';
import { columnOf, firstParting, groupReward, type ComparedRun } from '../../state/compareModel.ts';
import { rewardWords } from '../../state/rewardWords.ts';
import type { GroupReward } from '../../../workers/engine/reward.ts';
import './Compare.css';
import { useCompareStore, usePart, usePreferencesStore } from '../../state/context.tsx';
import { createHistory } from '../../state/history.ts';

const PRESET_LABELS: Record<PreferencePresetName, string> = {
  cheapest: 'Cheapest',
  balanced: 'Balanced',
  'best-answer': 'Best answer',
  fastest: 'Fastest',
};

type PreferenceChoice = PreferencePresetName | 'sliders';

export function CompareView() {
  const compared = useCompareStore((state) => state.compared);
  if (!compared) return null;
  return <Comparison runs={compared} />;
}

function Comparison({ runs }: { runs: ComparedRun[] }) {
  const sliders = usePreferencesStore((state) => state.vector);
  const [choice, setChoice] = useState<PreferenceChoice>('sliders');
  const preference: PreferenceVector = choice === 'sliders' ? sliders : PREFERENCE_PRESETS[choice];
  const samples = useSampleTasks();
  const columns = useMemo(() => runs.map(columnOf), [runs]);
  const parting = firstParting(columns);

  // Correct when the task is a sample task and the answer states its answer; otherwise the person says.
  const references = runs.map(({ summary }) =>
    samples.status === 'ready' ? (samples.tasks.find((task) => task.question === summary.task.trim())?.answer ?? null) : null,
  );
  const [marked, setMarked] = useState<Record<string, boolean>>({});
  const correct = runs.map(({ summary }, index) => {
    const reference = references[index];
    if (reference != null) return statesAnswer(summary.answer, reference);
    return marked[summary.id] ?? summary.answer !== null;
  });
  const group = groupReward(runs, correct, preference);
  const longest = Math.max(...columns.map((column) => column.steps.length));
  const template = { gridTemplateColumns: `minmax(7rem, auto) repeat(${runs.length}, minmax(10rem, 1fr))` };

  return (
    <section className="panel compare" aria-label="Compare runs">
      <CompareHeader runs={runs.length} choice={choice} onChoice={setChoice} />
      <p className="panel-hint">
        {parting === null ? 'The routes are the same at every step.' : `The routes first part at step ${parting}.`} Recorded runs: nothing is called.
      </p>

      <div className="compare-grid" style={template} role="table" aria-label="Runs compared">
        <div role="row" className="compare-row">
          <span role="rowheader" />
          {runs.map(({ summary }, index) => (
            <span role="columnheader" key={summary.id} className="compare-run-title">
              <span className={`compare-swatch series-${index + 1}`} aria-hidden="true" />
              {clipTitle(summary.name ?? summary.task)}
              <small>{new Date(summary.startedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</small>
            </span>
          ))}
        </div>
        <Row label="Orchestrator" cells={runs.map(({ summary }) => summary.orchestratorModel)} />
        <Row
          label="Preference"
          cells={runs.map(({ summary }) =>
            summary.preset ? PRESET_LABELS[summary.preset] : summary.preference ? `outcome ${summary.preference.outcome} · cost ${summary.preference.cost} · latency ${summary.preference.latency}` : '—',
          )}
        />

        {Array.from({ length: longest }, (_, index) => (
          <StepRow key={index + 1} step={index + 1} columns={columns} parting={parting} />
        ))}

        <Row label="Answer" cells={columns.map((column) => column.answer ?? 'no answer')} />
        <CorrectRow runs={runs} references={references} correct={correct} onMark={(id, value) => setMarked((before) => ({ ...before, [id]: value }))} />
        <Row label="Total cost" cells={columns.map((column) => formatUsd(column.costUsd))} />
        <Row label="Time" cells={columns.map((column) => formatMs(column.latencyMs))} />
        <Row label="Tokens" cells={columns.map((column) => `${formatCount(column.promptTokens)} in / ${formatCount(column.completionTokens)} out`)} />
        <RewardRows group={group} correct={correct} preference={preference} />
      </div>
      {group.tooSmall ? (
        <p className="panel-hint">With fewer than three runs the paper would not train on this group; the figures still show how it scores them.</p>
      ) : null}
    </section>
  );
}

function CompareHeader({ runs, choice, onChoice }: { runs: number; choice: PreferenceChoice; onChoice(choice: PreferenceChoice): void }) {
  const historyFlow = usePart(createHistory);
  return (
    <header className="compare-header">
      <h2>Comparing {runs} runs</h2>
      <label>
        Reward under{' '}
        <select value={choice} onChange={(event) => onChoice(event.target.value as PreferenceChoice)}>
          <option value="sliders">your current preference</option>
          {(Object.keys(PRESET_LABELS) as PreferencePresetName[]).map((name) => (
            <option key={name} value={name}>
              {PRESET_LABELS[name]}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={historyFlow.closeComparison}>
        Close
      </button>
    </header>
  );
}

/** One step of every run: the calls it made, and what it cost and took. */
function StepRow({ step, columns, parting }: { step: number; columns: ReturnType<typeof columnOf>[]; parting: number | null }) {
  const index = step - 1;
  return (
    <div role="row" className={`compare-row compare-step${parting === step ? ' parting' : ''}`} data-step={step}>
      <span role="rowheader">
        Step {step}
        {parting === step ? <strong className="compare-parting-label"> routes part here</strong> : null}
      </span>
      {columns.map((column, runIndex) => {
        const figures = column.steps[index];
        return (
          <span role="cell" key={runIndex}>
            {figures ? (
              <>
                <span className="compare-chips">
                  {figures.chips.length === 0 ? <span className="compare-chip none">no call</span> : null}
                  {figures.chips.map((chip, chipIndex) => (
                    <span className="compare-chip" key={chipIndex}>
                      {chip}
                    </span>
                  ))}
                </span>
                <small>
                  {formatUsd(figures.costUsd)} · {formatMs(figures.latencyMs)} · {formatCount(figures.promptTokens)} in / {formatCount(figures.completionTokens)} out
                </small>
              </>
            ) : (
              <small>—</small>
            )}
          </span>
        );
      })}
    </div>
  );
}

interface CorrectRowProps {
  runs: ComparedRun[];
  /** The sample task's answer of each run, or null where there is none. */
  references: (string | null)[];
  correct: boolean[];
  onMark(runId: string, correct: boolean): void;
}

function CorrectRow({ runs, references, correct, onMark }: CorrectRowProps) {
  return (
    <div role="row" className="compare-row">
      <span role="rowheader">Correct</span>
      {runs.map(({ summary }, index) => (
        <span role="cell" key={summary.id}>
          {references[index] != null ? (
            <>
              {correct[index] ? 'Yes' : 'No'} <small>(the sample answer is {references[index]})</small>
            </>
          ) : (
            <label>
              <input
                type="checkbox"
                checked={correct[index] ?? false}
                onChange={(event) => onMark(summary.id, event.target.checked)}
              />{' '}
              counts as correct <small>(no reference answer: you judge)</small>
            </label>
          )}
        </span>
      ))}
    </div>
  );
}

/** The paper's reward of each run with why, in words, at the number; how it is scaled over these
 * runs (all or nothing with two); then each weighed figure with its weight and what it gave each
 * run, and the advantage. Figures the preference does not weigh are not listed: they count for nothing. */
function RewardRows({ group, correct, preference }: { group: GroupReward; correct: boolean[]; preference: PreferenceVector }) {
  const words = rewardWords(group, correct, preference);
  return (
    <>
      <div role="row" className="compare-row compare-reward">
        <span role="rowheader">Reward</span>
        {group.rewards.map((reward, index) => (
          <span role="cell" key={index}>
            <strong>{reward.toFixed(3)}</strong>
            <span className="compare-why">{words.why[index]}</span>
          </span>
        ))}
      </div>
      <div role="row" className="compare-row compare-note">
        <span role="cell" style={{ gridColumn: '1 / -1' }}>
          {words.scaling}
        </span>
      </div>
      {words.terms.map((term) => (
        <Row key={term.feature} label={term.heading} cells={term.cells} />
      ))}
      <Row label="Advantage" cells={group.advantages.map((advantage) => advantage.toFixed(3))} />
    </>
  );
}

function Row({ label, cells, strong = false }: { label: string; cells: string[]; strong?: boolean }) {
  return (
    <div role="row" className="compare-row">
      <span role="rowheader">{label}</span>
      {cells.map((cell, index) => (
        <span role="cell" key={index}>
          {strong ? <strong>{cell}</strong> : cell}
        </span>
      ))}
    </div>
  );
}
