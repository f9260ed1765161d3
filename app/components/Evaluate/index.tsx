// The Evaluate tab: a suite (built in, or a JSONL file picked or dropped) under several policies
// (the configured orchestrator, a preference sweep, the paper's baselines), run in the
// orchestrator worker with one progress bar, each policy's accuracy so far beside it. Its results
// (EvalResultsView: a table per policy, accuracy against cost with the Pareto front, tool-call
// shares, every rollout's verdict with the stored run behind it) take the page's wide centre while
// the tab is open, as Compare does. The CLI's results import there and draw the same. Loaded when
// the tab is first opened.

import { lazy, Suspense, useEffect, useId, useDeferredValue, useMemo, useState, type DragEvent } from 'react';
import { BUILT_IN_SUITES, type BuiltInSuite } from '../../../workers/eval/builtInSuites.ts';
import { isTau2SuiteName, TAU2_SUITES } from '../../../workers/domains/tau2/suiteNames.ts';
import { hasGroups, type EvalSummary, type RolloutRecord } from '../../../workers/eval/results.ts';
import { formatCount, formatMs, formatUsd } from '../../format.ts';
import type { EvalState } from '../../state/evalStore.ts';
import { CONCURRENCY_MAX, reportOf, ROLLOUTS_MAX } from '../../state/evaluation.ts';
import { WarmUpWhenIdle } from '../Charts/WarmUpWhenIdle.tsx';
import { FileImportButton } from '../FileImportButton/index.tsx';
import { GroupRewards } from './GroupRewards.tsx';
import { useThrottled } from '../../hooks/useThrottled.ts';
import { perPolicyHeadline, policyRow, progressView, rolloutOrder, verdictLine, type PolicyChoice } from './evalView.ts';
import './Evaluate.css';
import { useModelsStore, usePart, useRunStore, useSelected, useSetupStore } from '../../state/context.tsx';
import { SHOWN_PASS_K, simulatedUserChoices, tau2Figures, type Tau2Figures } from './tau2View.ts';
import { createHistory } from '../../state/history.ts';
import { createEvaluation } from '../../state/evaluation.ts';

/** What `selector` picks of the evaluation's store. */
function useEvalStore<T>(selector: (state: EvalState) => T): T {
  return useSelected(usePart(createEvaluation).store, selector);
}

const loadCharts = () => import('./EvalCharts.tsx');
const EvalCharts = lazy(() => loadCharts().then((module) => ({ default: module.EvalCharts })));

const loadWarmUp = () => loadCharts().then((module) => module.ChartsWarmUp);

const SUITE_LABELS: Record<BuiltInSuite, string> = {
  corpus: 'Multi-hop questions over the local corpus',
  retail: 'Retail domain: orders, returns, exchanges',
  clinic: 'Clinic domain: appointments, refills',
};

/** Rollouts listed at once under "Every rollout" (the rest: export the JSON). */
const ROLLOUTS_SHOWN = 500;

export function EvaluatePanel() {
  const evaluation = usePart(createEvaluation);
  const headingId = useId();
  useEffect(() => {
    evaluation.readSuiteOnce();
    void evaluation.restoreResultsOnce();
  }, [evaluation]);
  return (
    <section className="panel evaluate-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Evaluate</h2>
      <p className="panel-hint">
        Run a suite of tasks with checked answers under several policies, with the setup and preferences you have now. Each rollout is kept in History as a
        run.
      </p>
      <SuitePicker />
      <PolicyPicker />
      <RunControls />
      <Notice />
      <p className="eval-hint">The results, the table and the charts are in the middle of the page.</p>
      <WarmUpWhenIdle name="evaluate" load={loadWarmUp} timeoutMs={3000} fallbackMs={500} />
    </section>
  );
}

function SuitePicker() {
  const evaluation = usePart(createEvaluation);
  const suite = useEvalStore((state) => state.suite);
  const reading = useEvalStore((state) => state.reading);
  const busy = useEvalStore((state) => state.phase !== 'idle');
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent<HTMLFieldSetElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !busy) void evaluation.chooseSuiteFile(file);
  };

  return (
    <fieldset
      className={`eval-suite${dragging ? ' dragging' : ''}`}
      disabled={busy}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      aria-describedby="eval-suite-drop"
    >
      <legend>Suite</legend>
      <div className="eval-row">
        <select
          aria-label="Suite"
          value={suite.kind === 'builtin' ? suite.name : 'file'}
          onChange={(event) => {
            const value = event.target.value;
            if (isTau2SuiteName(value)) evaluation.chooseBuiltInSuite(value);
            else if (value !== 'file') evaluation.chooseBuiltInSuite(value as BuiltInSuite);
          }}
        >
          <optgroup label="Built in">
            {BUILT_IN_SUITES.map((name) => (
              <option key={name} value={name}>
                {SUITE_LABELS[name]}
              </option>
            ))}
          </optgroup>
          <optgroup label="τ²-Bench and ToolScale (with a simulated user)">
            {TAU2_SUITES.map(({ name, label }) => (
              <option key={name} value={name}>
                {label}
              </option>
            ))}
          </optgroup>
          {suite.kind === 'file' && <option value="file">Your file: {suite.name}</option>}
        </select>
        <FileImportButton label="Import suite…" accept={EVAL_FILES} inputLabel="Suite file to import" onFile={evaluation.chooseSuiteFile} />
      </div>
      <p id="eval-suite-drop" className="eval-hint">
        Or drop a JSONL file here: one task a line, {'{"id", "task", "answer"?, "check"?, "domain"?}'}.
      </p>
      <SuiteReadingView reading={reading} />
      {suite.kind === 'builtin' && isTau2SuiteName(suite.name) && <SimulatedUser />}
    </fieldset>
  );
}

/** Who plays a τ² suite's user: the scripted user, or the model behind an expert alias of the
 * configuration in Setup (the CLI's --user). */
function SimulatedUser() {
  const evaluation = usePart(createEvaluation);
  const user = useEvalStore((state) => state.user);
  const experts = useSetupStore((state) => state.draft.experts);
  const choices = useMemo(() => simulatedUserChoices({ experts }), [experts]);
  const hintId = useId();
  return (
    <div className="eval-user">
      <label className="eval-field">
        Simulated user
        <select value={user} aria-describedby={hintId} onChange={(event) => evaluation.store.actions.setOptions({ user: event.target.value })}>
          {!choices.some((choice) => choice.value === user) && <option value={user}>{user} (not in your configuration)</option>}
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <p id={hintId} className="eval-hint">
        Each task is a conversation: the user plays the task's scenario with τ²'s guidelines and stops with ###STOP###. A model's turns are priced apart from the
        agent's and kept out of the reward's cost. Graded by τ²'s criteria; NL_ASSERTION only with a judge in the configuration.
      </p>
    </div>
  );
}

/** A button that opens the file picker for one JSON or JSONL file (a suite, a results file). */
// What the suite and results imports take: JSONL, or the JSON of a --report file.
const EVAL_FILES = '.jsonl,.json,.txt,application/jsonl,application/json,text/plain';

function SuiteReadingView({ reading }: { reading: EvalState['reading'] }) {
  if (reading === null) return <p className="eval-hint">Reading the suite…</p>;
  if (!reading.ok) {
    return (
      <div className="eval-notice problem" role="alert" aria-label="Suite problems">
        {reading.problems.map((problem, index) => (
          <p key={index}>{problem}</p>
        ))}
      </div>
    );
  }
  const checks = Object.entries(reading.checks)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  return (
    <div className="eval-suite-info" aria-label="Suite contents">
      <p>
        <strong>{reading.tasks} tasks</strong> · checks: {checks}
        {reading.domains.length > 0 ? ` · domain: ${reading.domains.join(', ')}` : ''}
      </p>
      {reading.warnings.slice(0, 5).map((warning, index) => (
        <p key={index} className="eval-warning">
          {warning}
        </p>
      ))}
    </div>
  );
}

const BASELINES: Array<[keyof Omit<PolicyChoice, 'sweep'>, string, string]> = [
  ['orchestrator', 'Orchestrator', 'the configured orchestrator under the current preferences'],
  ['strongest', 'Strongest expert alone', 'the priciest answering expert, no orchestrator'],
  ['cheapest', 'Cheapest expert alone', 'the least pricey answering expert, no orchestrator'],
  ['random', 'Random routes', 'tools and aliases picked at random, seeded'],
];

function PolicyPicker() {
  const evaluation = usePart(createEvaluation);
  const evalActions = evaluation.store.actions;
  const policies = useEvalStore((state) => state.policies);
  const rollouts = useEvalStore((state) => state.rollouts);
  const concurrency = useEvalStore((state) => state.concurrency);
  const budget = useEvalStore((state) => state.budget);
  const seed = useEvalStore((state) => state.seed);
  const limit = useEvalStore((state) => state.limit);
  const busy = useEvalStore((state) => state.phase !== 'idle');
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  return (
    <fieldset className="eval-policies" disabled={busy}>
      <legend>Policies</legend>
      {BASELINES.map(([key, label, hint]) => (
        <label key={key} className="eval-check">
          <input type="checkbox" checked={policies[key]} onChange={(event) => evalActions.setPolicies({ [key]: event.target.checked })} />
          <span>
            {label} <span className="eval-hint">— {hint}</span>
          </span>
        </label>
      ))}
      <LocalQwen3 />
      <label className="eval-field">
        Preference sweep
        <select value={policies.sweep} onChange={(event) => evalActions.setPolicies({ sweep: event.target.value as PolicyChoice['sweep'] })}>
          <option value="none">None</option>
          <option value="presets">The four presets</option>
          <option value="cost">Cost weight 0, 0.25, 0.5, 0.75, 1</option>
        </select>
      </label>
      <div className="eval-options">
        <label className="eval-field">
          Rollouts per task
          <input type="number" min={1} max={ROLLOUTS_MAX} value={Number.isNaN(rollouts) ? '' : rollouts} onChange={(event) => evalActions.setOptions({ rollouts: number(event.target.value) })} />
        </label>
        <label className="eval-field">
          Concurrency
          <input type="number" min={1} max={CONCURRENCY_MAX} value={Number.isNaN(concurrency) ? '' : concurrency} onChange={(event) => evalActions.setOptions({ concurrency: number(event.target.value) })} />
        </label>
        <label className="eval-field">
          Tasks (first N)
          <input type="text" inputMode="numeric" placeholder="all" value={limit} onChange={(event) => evalActions.setOptions({ limit: event.target.value })} />
        </label>
        <label className="eval-field">
          Budget (USD)
          <input type="text" inputMode="decimal" placeholder="none" value={budget} onChange={(event) => evalActions.setOptions({ budget: event.target.value })} />
        </label>
        <label className="eval-field">
          Seed
          <input type="text" value={seed} onChange={(event) => evalActions.setOptions({ seed: event.target.value })} />
        </label>
      </div>
    </fieldset>
  );
}

/** A Qwen3 loaded in this browser (web-llm or GGUF) as orchestrator, prompted with the tools:
 * offered only while one is loaded (the worker holds the models). */
function LocalQwen3() {
  const evaluation = usePart(createEvaluation);
  const evalActions = evaluation.store.actions;
  const loaded = useModelsStore((state) => state.loaded);
  const chosen = useEvalStore((state) => state.qwen3);
  const hintId = useId();
  const first = loaded[0];
  return (
    <div className="eval-local">
      <label className="eval-check">
        <input
          type="checkbox"
          checked={chosen !== null}
          disabled={chosen === null && !first}
          aria-describedby={hintId}
          onChange={(event) => evalActions.setQwen3(event.target.checked && first ? first.id : null)}
        />
        <span>
          Prompted Qwen3 (local) <span className="eval-hint">— a model loaded in this browser as orchestrator, the tools written into its prompt, at $0</span>
        </span>
      </label>
      {first ? (
        <select aria-label="Local model" value={chosen ?? first.id} disabled={chosen === null} onChange={(event) => evalActions.setQwen3(event.target.value)}>
          {chosen !== null && !loaded.some((model) => model.id === chosen) && <option value={chosen}>{chosen} (no longer loaded)</option>}
          {loaded.map((model) => (
            <option key={model.id} value={model.id}>
              {model.label} ({model.gguf ? 'GGUF, llama.cpp' : 'web-llm'})
            </option>
          ))}
        </select>
      ) : null}
      <p id={hintId} className="eval-hint">
        {first
          ? 'It runs under your configuration\'s provider of its kind, or one the evaluation adds (qwen3=<provider>/<model>, as the CLI spells it).'
          : 'Unavailable: no local model is loaded in this browser. Load a Qwen3 (web-llm or GGUF) in Models to offer it here.'}
      </p>
    </div>
  );
}

function RunControls() {
  const evaluation = usePart(createEvaluation);
  const phase = useEvalStore((state) => state.phase);
  const progress = useEvalStore((state) => state.progress);
  const resumable = useEvalStore((state) => state.results?.origin === 'run' && state.results.end !== undefined && state.results.end.missing > 0);
  const view = progress && progressView(progress);
  const results = useEvalStore((state) => state.results);
  const throttled = useThrottled(results, RESULTS_INTERVAL_MS);
  const headline = useMemo(() => (throttled && phase !== 'idle' ? perPolicyHeadline(reportOf(throttled)?.policies ?? []) : []), [throttled, phase]);
  return (
    <div className="eval-run">
      <div className="eval-row">
        <button type="button" className="primary" onClick={evaluation.startEvaluation} disabled={phase !== 'idle'}>
          Run evaluation
        </button>
        <button type="button" onClick={evaluation.stopEvaluation} disabled={phase !== 'running' && phase !== 'starting'}>
          {phase === 'stopping' ? 'Stopping…' : 'Stop evaluation'}
        </button>
        {resumable && phase === 'idle' && (
          <button type="button" onClick={evaluation.resumeEvaluation}>
            Resume
          </button>
        )}
      </div>
      {(phase !== 'idle' || view) && (
        <div className="eval-progress" role="status" aria-label="Evaluation progress">
          <progress max={1} value={view?.fraction ?? 0} aria-label="Rollouts done" />
          <p>{view ? view.text : 'Preparing: reading the suite, checking its domains and policies…'}</p>
          {headline.length > 0 && <PolicyHeadline lines={headline} />}
        </div>
      )}
    </div>
  );
}

function Notice() {
  const notice = useEvalStore((state) => state.notice);
  if (!notice) return null;
  return (
    <div className={`eval-notice ${notice.kind}`} role={notice.kind === 'problem' ? 'alert' : 'status'} aria-label="Evaluation notice">
      {notice.lines.map((line, index) => (
        <p key={index}>{line}</p>
      ))}
    </div>
  );
}

// While rollouts stream in, the table and charts redraw at most this often (recharts redrawn per
// rollout kept the page's thread busy: npm run bench -- --only eval-ui). Otherwise (an import, the
// end of a run) at once.
const RESULTS_INTERVAL_MS = 1000;

/** Each policy's accuracy, never one pooled over them: "Orchestrator 80% (8/10)". */
function PolicyHeadline({ lines }: { lines: string[] }) {
  return (
    <ul className="eval-headline" aria-label="Accuracy per policy">
      {lines.map((line, index) => (
        <li key={index}>{line}</li>
      ))}
    </ul>
  );
}

/** The evaluation's results in the page's centre: the Evaluate tab's run, or the CLI's imported. */
export function EvalResultsView() {
  const headingId = useId();
  return (
    <section className="panel eval-centre" aria-labelledby={headingId}>
      <h2 id={headingId}>Evaluation results</h2>
      <Results />
    </section>
  );
}

function Results() {
  const evaluation = usePart(createEvaluation);
  const latest = useEvalStore((state) => state.results);
  const running = useEvalStore((state) => state.phase === 'running');
  const throttled = useThrottled(latest, RESULTS_INTERVAL_MS);
  const results = running ? (throttled ?? null) : latest;
  const idle = useEvalStore((state) => state.phase === 'idle');
  const report = useMemo(() => (results ? reportOf(results) : null), [results]);
  // The table and charts follow in a render of their own, which React slices (a store update
  // renders in one task): drawn at once, a file's 100 policies held the page's thread past 200 ms.
  const shown = useDeferredValue(report);
  const headingId = useId();
  return (
    <section className="eval-results" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Results{results?.source ? <span className="eval-source"> · {results.origin === 'import' ? 'imported from ' : ''}{results.source}</span> : null}
        {results?.savedAt ? (
          <span className="eval-source">
            {' '}
            · kept from <time dateTime={results.savedAt}>{new Date(results.savedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</time>
          </span>
        ) : null}
      </h3>
      <div className="eval-row">
        <FileImportButton label="Import CLI results…" accept={EVAL_FILES} inputLabel="Results file to import" disabled={!idle} onFile={evaluation.importResultsFile} />
        <button type="button" onClick={() => void evaluation.exportCsv()} disabled={!report}>
          Export CSV
        </button>
        <button type="button" onClick={() => void evaluation.exportJson()} disabled={!report}>
          Export JSON
        </button>
        <button type="button" onClick={() => void evaluation.clearResults()} disabled={!results || !idle} title="Take these results off the screen and out of this browser's storage">
          Clear
        </button>
      </div>
      {shown && shown.policies.length > 0 ? (
        <>
          <PolicyHeadline lines={perPolicyHeadline(shown.policies)} />
          <PolicyTable policies={shown.policies} />
          <Tau2Table figures={tau2Figures(shown.policies)} />
          <p className="eval-hint">
            ★ on the Pareto front: no other policy is as cheap and as accurate. Accuracy: correct rollouts over rollouts, with the 95% Wilson interval. Cost/task
            includes grading; ≈ marks estimates.
          </p>
          <Suspense fallback={<p className="eval-hint">Loading the charts…</p>}>
            <EvalCharts summary={shown} />
          </Suspense>
          {results && results.records.length > 0 && <Rollouts records={results.records} total={results.recordCount ?? results.records.length} stored={results.origin === 'run'} />}
          {hasGroups(shown) && <GroupRewards groups={shown.groups} />}
        </>
      ) : (
        <p className="eval-hint">No results yet: run a suite, or import what `orchestra eval` wrote (--out, --json or --report).</p>
      )}
    </section>
  );
}

/** Every rollout, by task: its verdict and why, its cost and time, and the stored run behind it. */
function Rollouts({ records, total, stored }: { records: RolloutRecord[]; total: number; stored: boolean }) {
  const historyFlow = usePart(createHistory);
  const [open, setOpen] = useState(false);
  const busy = useRunStore((state) => state.phase !== 'idle');
  const sorted = useMemo(() => (open ? [...records].sort(rolloutOrder) : []), [open, records]);
  return (
    <details className="eval-rollouts" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Every rollout ({total.toLocaleString('en-US')})</summary>
      {open && (
        <ul aria-label="Rollouts">
          {sorted.slice(0, ROLLOUTS_SHOWN).map((record) => {
            const verdict = verdictLine(record);
            return (
              <li key={`${record.policy}/${record.taskId}/${record.rollout}/${record.runId}`} className={`eval-rollout ${verdict.mark === '✓' ? 'correct' : 'wrong'}`}>
                <span className="eval-mark" aria-label={verdict.mark === '✓' ? 'correct' : verdict.mark === '!' ? 'check failed' : 'wrong'}>
                  {verdict.mark}
                </span>
                <span className="eval-rollout-what">
                  <strong>{record.taskId}</strong> · {record.policy}
                  {record.rollout > 1 ? ` #${record.rollout}` : ''} · {formatUsd(record.costUsd)} · {formatMs(record.latencyMs)}
                  <span className="eval-verdict">{verdict.text}</span>
                </span>
                {stored && (
                  <button type="button" onClick={() => void historyFlow.openStoredRun(record.runId)} disabled={busy} title="Open the stored run in the trace">
                    Open
                  </button>
                )}
              </li>
            );
          })}
          {total > ROLLOUTS_SHOWN && <li className="eval-hint">{(total - Math.min(ROLLOUTS_SHOWN, sorted.length)).toLocaleString('en-US')} more: export the JSON or open them in History.</li>}
        </ul>
      )}
    </details>
  );
}

/** τ²'s figures per policy, as `orchestra eval` prints them for a τ² suite: pass^1…pass^K and
 * each criterion's share, with what the simulated users cost. */
function Tau2Table({ figures }: { figures: Tau2Figures | null }) {
  const headingId = useId();
  if (!figures) return null;
  return (
    <section className="eval-tau2" aria-labelledby={headingId}>
      <h4 id={headingId}>τ² figures</h4>
      <div className="eval-table-scroll">
        <table className="eval-table" aria-label="τ² figures per policy">
          <thead>
            <tr>
              <th scope="col">Policy</th>
              {figures.ks.map((k) => (
                <th key={`pass${k}`} scope="col">
                  pass^{formatCount(k)}
                </th>
              ))}
              {figures.criteria.map((criterion) => (
                <th key={criterion} scope="col">
                  {criterion}
                </th>
              ))}
              <th scope="col">Simulated user</th>
            </tr>
          </thead>
          <tbody>
            {figures.rows.map((row) => (
              <tr key={row.name} data-policy={row.name}>
                <th scope="row">{row.name}</th>
                {row.passHatK.map((value, i) => (
                  <td key={`pass${figures.ks[i]}`}>{value}</td>
                ))}
                {row.criteria.map((cell, i) => (
                  <td key={figures.criteria[i]}>{cell}</td>
                ))}
                <td>{row.userCost}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="eval-hint">
        pass^k: the chance that k rollouts of a task drawn at random are all right, averaged over the tasks (τ²).
        {figures.k > SHOWN_PASS_K
          ? ` Of pass^1…pass^${formatCount(figures.k)}, the table shows the first ${SHOWN_PASS_K - 1} and the last; Export JSON holds them all.`
          : ''}{' '}
        A criterion: the share of its graded rollouts
        that passed it, counted in the reward or not; &quot;not graded&quot; where no judge is configured. The simulated user&apos;s cost is in Cost/task but not in
        the reward&apos;s cost.
      </p>
    </section>
  );
}

/** One row per policy: correct, accuracy with its interval, cost, latency, cost per correct answer, tools. */
function PolicyTable({ policies }: { policies: EvalSummary['policies'] }) {
  return (
    <div className="eval-table-scroll">
      <table className="eval-table" aria-label="Results per policy">
        <thead>
          <tr>
            <th scope="col">Policy</th>
            <th scope="col">Correct</th>
            <th scope="col">Accuracy (95% CI)</th>
            <th scope="col">Cost/task</th>
            <th scope="col">Latency</th>
            <th scope="col">Cost/correct</th>
            <th scope="col">Tool calls</th>
          </tr>
        </thead>
        <tbody>
          {policies.map((policy) => {
            const row = policyRow(policy);
            return (
              <tr key={row.name} data-policy={row.name}>
                <th scope="row" title={row.label}>
                  {row.pareto ? <span title="On the Pareto front">★ </span> : null}
                  {row.name}
                  {row.caveats ? <span className="eval-caveat">{row.caveats}</span> : null}
                </th>
                <td>{row.rollouts}</td>
                <td>
                  {row.accuracy} <span className="eval-interval">({row.interval})</span>
                </td>
                <td>{row.cost}</td>
                <td>{row.latency}</td>
                <td>{row.costPerCorrect}</td>
                <td>{row.tools}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
