// What the Evaluate tab's controls do: read a suite, start and stop an evaluation in the
// orchestrator worker (workers/evalHost.ts drives workers/eval/runner.ts, the CLI's loop), take
// its progress and records, import the CLI's results, export the report. Like session.ts for a
// run, the one place these act through; evalStore.ts only holds state.

import { newRunId } from '../../workers/engine/ids.ts';
import { summarizeEval, summaryToCsv, type EvalReport, type EvalSummary } from '../../workers/eval/results.ts';
import { SUITE_LIMITS } from '../../workers/eval/suite.ts';
import type { BuiltInSuite } from '../../workers/eval/builtInSuites.ts';
import type { EvalFromWorker, EvalRequest, EvalSuiteInput } from '../../workers/messages.ts';
import { downloadText } from '../download.ts';
import { localQwen3Policy, policyNames, readBudget, savedResults } from '../components/Evaluate/evalView.ts';
import { deleteLastResults, writeLastResults } from '../storage/evalResultsDb.ts';
import { readResultsOffThread } from '../worker/resultsRead.ts';
import { evalActions, useEvalStore, type EvalResults, type SuiteChoice } from './evalStore.ts';
import { useModelsStore } from './modelsStore.ts';
import { currentConfig, evaluationWorker, keysLeftIn } from './session.ts';

export const ROLLOUTS_MAX = 100;
export const CONCURRENCY_MAX = 16;

function suiteInput(suite: SuiteChoice): EvalSuiteInput {
  return suite.kind === 'builtin' ? suite : { kind: 'file', name: suite.name, text: suite.text };
}

/** Asks the worker what the chosen suite holds (its tasks, or every problem with its line). */
function readChosenSuite(): void {
  const requestId = newRunId();
  useEvalStore.setState({ reading: null, readingId: requestId });
  evaluationWorker().readSuite(requestId, suiteInput(useEvalStore.getState().suite));
}

export function chooseBuiltInSuite(name: BuiltInSuite): void {
  useEvalStore.setState({ suite: { kind: 'builtin', name } });
  readChosenSuite();
}

/** Reads the suite the page shows first (once, when the tab opens). */
export function readSuiteOnce(): void {
  const { reading, readingId } = useEvalStore.getState();
  if (reading === null && readingId === null) readChosenSuite();
}

/** A JSONL suite from the file picker or a drop: its size is checked before it is read. */
export async function chooseSuiteFile(file: File): Promise<void> {
  if (file.size > SUITE_LIMITS.fileChars) {
    evalActions.notice('problem', [`"${file.name}" was not read: it is ${file.size.toLocaleString('en-US')} bytes; a suite may hold ${SUITE_LIMITS.fileChars.toLocaleString('en-US')}.`]);
    return;
  }
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    evalActions.notice('problem', [`"${file.name}" could not be read: ${(error as Error).message}`]);
    return;
  }
  evalActions.clearNotice();
  useEvalStore.setState({ suite: { kind: 'file', name: file.name, text, bytes: file.size } });
  readChosenSuite();
}

/** What the tab's controls would run, or why they cannot. */
function requestFromControls(): { ok: true; request: EvalRequest } | { ok: false; problems: string[] } {
  const state = useEvalStore.getState();
  const problems: string[] = [];
  if (state.reading === null) problems.push('The suite is still being read.');
  else if (!state.reading.ok) problems.push('The suite has problems (listed under it): pick another or fix the file.');
  const policies = policyNames(state.policies);
  let config = currentConfig();
  if (state.qwen3 !== null) {
    const model = useModelsStore.getState().loaded.find((loaded) => loaded.id === state.qwen3);
    if (!model) problems.push(`Prompted Qwen3: "${state.qwen3}" is no longer loaded in this browser. Load it again in Models, or untick the policy.`);
    else {
      const local = localQwen3Policy(config, model);
      config = local.config;
      policies.push(local.policy);
    }
  }
  if (policies.length === 0) problems.push('Pick at least one policy.');
  if (!Number.isInteger(state.rollouts) || state.rollouts < 1 || state.rollouts > ROLLOUTS_MAX) problems.push(`Rollouts per task must be a whole number from 1 to ${ROLLOUTS_MAX}.`);
  if (!Number.isInteger(state.concurrency) || state.concurrency < 1 || state.concurrency > CONCURRENCY_MAX) problems.push(`Concurrency must be a whole number from 1 to ${CONCURRENCY_MAX}.`);
  const budget = readBudget(state.budget);
  if (!budget.ok) problems.push(budget.problem);
  if (problems.length > 0 || !budget.ok) return { ok: false, problems };
  return {
    ok: true,
    request: {
      evalId: newRunId(),
      config,
      suite: suiteInput(state.suite),
      policies,
      rollouts: state.rollouts,
      concurrency: state.concurrency,
      budgetUsd: budget.usd,
      seed: state.seed.trim() || '0',
      previous: [],
    },
  };
}

function launch(request: EvalRequest, results: EvalResults): void {
  useEvalStore.setState({ phase: 'starting', evalId: request.evalId, progress: null, notice: null, results });
  evaluationWorker().startEval(request);
}

/** Runs the suite under the chosen policies with the config and preferences set now. */
export function startEvaluation(): void {
  if (useEvalStore.getState().phase !== 'idle') return;
  const built = requestFromControls();
  if (!built.ok) {
    evalActions.notice('problem', built.problems);
    return;
  }
  launch(built.request, { origin: 'run', source: '', records: [], request: built.request });
}

/** Goes on with a stopped evaluation: the rollouts it recorded are skipped (the runner's resume). */
export function resumeEvaluation(): void {
  const { phase, results } = useEvalStore.getState();
  if (phase !== 'idle' || results?.origin !== 'run' || !results.request) return;
  const request: EvalRequest = { ...results.request, evalId: newRunId(), previous: results.records };
  launch(request, { ...results, request, end: undefined });
}

export function stopEvaluation(): void {
  const { phase, evalId } = useEvalStore.getState();
  if (!evalId || (phase !== 'running' && phase !== 'starting')) return;
  useEvalStore.setState({ phase: 'stopping' });
  evaluationWorker().stopEval(evalId);
}

/** A message of the worker's evaluation side (session.ts hands them over). */
export function receive(message: EvalFromWorker): void {
  const state = useEvalStore.getState();
  switch (message.type) {
    case 'suite_read':
      if (message.requestId === state.readingId) useEvalStore.setState({ reading: message.reading });
      return;
    case 'eval_events':
      return; // Recorded in the run history by session.ts.
    default:
      break;
  }
  if (message.evalId !== state.evalId) return;
  switch (message.type) {
    case 'eval_ready':
      useEvalStore.setState((now) => ({
        phase: now.phase === 'stopping' ? 'stopping' : 'running',
        results: now.results && {
          ...now.results,
          source: message.source,
          plan: { taskIds: message.taskIds, policies: message.policies, rollouts: message.rollouts },
        },
      }));
      return;
    case 'eval_rejected':
      useEvalStore.setState({ phase: 'idle', evalId: null, notice: { kind: 'problem', lines: ['The evaluation could not start:', ...message.problems] } });
      return;
    case 'eval_progress': {
      const { event } = message;
      useEvalStore.setState((now) => ({
        progress: event.progress,
        results:
          event.type === 'rollout_finished' && now.results
            ? { ...now.results, records: [...now.results.records, event.record] }
            : now.results,
        notice:
          event.type === 'budget_reached'
            ? { kind: 'ok', lines: ['The budget is reached: no new rollout starts; those running finish.'] }
            : now.notice,
      }));
      return;
    }
    case 'eval_finished': {
      const { end } = message;
      const lines = [
        `${end.interrupted ? 'Stopped' : end.budgetReached ? 'Stopped at the budget' : 'Done'}: ${end.progress.finished} rollouts run${end.progress.skipped > 0 ? `, ${end.progress.skipped} kept from before` : ''}${end.missing > 0 ? `, ${end.missing} not run (Resume runs them)` : ''}${end.crashed > 0 ? `, ${end.crashed} could not start` : ''}.`,
      ];
      useEvalStore.setState((now) => ({
        phase: 'idle',
        evalId: null,
        progress: end.progress,
        results: now.results && { ...now.results, end },
        notice: { kind: 'ok', lines },
      }));
      void saveResults();
      return;
    }
    case 'eval_failed':
      useEvalStore.setState({ phase: 'idle', evalId: null, notice: { kind: 'problem', lines: [message.message] } });
      void saveResults();
      return;
  }
}

/** The worker was lost (and the evaluation in it): what was recorded stays; Resume goes on. */
export function workerLost(message: string): void {
  if (useEvalStore.getState().phase === 'idle') return;
  useEvalStore.setState({ phase: 'idle', evalId: null, notice: { kind: 'problem', lines: [`The evaluation ended: ${message}`] } });
  void saveResults();
}

/** Keeps the results on screen for the next load (capped); a failure to keep them is said, and
 * the results stay on screen. */
async function saveResults(): Promise<void> {
  const { results } = useEvalStore.getState();
  const report = results && reportOf(results);
  if (!results || !report) return;
  const { saved } = savedResults(results, report, new Date());
  const recordsLeftOut = (results.recordCount ?? results.records.length) - saved.records.length;
  try {
    await writeLastResults(saved);
  } catch (error) {
    addNoticeLine(`These results will not be shown after a reload: ${(error as Error).message}`);
    return;
  }
  if (recordsLeftOut > 0) addNoticeLine(`After a reload the table and charts come back whole, with the first ${saved.records.length.toLocaleString('en-US')} rollouts listed (${recordsLeftOut.toLocaleString('en-US')} more: export the JSON now).`);
}

function addNoticeLine(line: string): void {
  useEvalStore.setState((now) => ({ notice: { kind: now.notice?.kind ?? 'ok', lines: [...(now.notice?.lines ?? []), line] } }));
}

let restoring = false;

/** Shows the results kept by the last load (once, when the tab opens), if nothing is on screen.
 * They are read and checked off the page's thread (app/worker/resultsRead.worker.ts). */
export async function restoreResultsOnce(): Promise<void> {
  if (restoring) return;
  restoring = true;
  const read = await readResultsOffThread({ kind: 'saved' });
  if (!read.ok) {
    evalActions.notice('problem', read.problems.map((problem) => (problem.startsWith('The results kept') ? problem : `Your last evaluation could not be read back: ${problem}`)));
    return;
  }
  const state = useEvalStore.getState();
  // An evaluation started or a file imported meanwhile wins.
  if (!('saved' in read) || read.saved === null || state.results !== null || state.phase !== 'idle') return;
  const { saved } = read;
  useEvalStore.setState({ results: { origin: saved.origin, source: saved.source, records: saved.records, imported: saved.report, savedAt: saved.savedAt } });
}

/** Takes the results off the screen and out of storage. */
export async function clearResults(): Promise<void> {
  if (useEvalStore.getState().phase !== 'idle') return;
  useEvalStore.setState({ results: null, progress: null, notice: null });
  try {
    await deleteLastResults();
  } catch (error) {
    evalActions.notice('problem', [(error as Error).message]);
  }
}

/** The report on screen: computed from the records, or as imported. */
export function reportOf(results: EvalResults): EvalSummary | EvalReport | null {
  if (results.imported) return results.imported;
  if (!results.plan) return null;
  return summarizeEval({ ...results.plan, records: results.records });
}

/** Reads what `orchestra eval` wrote (--out, --json or --report) off the page's thread, under the
 * caps (RESULTS_LIMITS), and shows it like a run here. */
export async function importResultsFile(file: File): Promise<void> {
  if (useEvalStore.getState().phase !== 'idle') return;
  const read = await readResultsOffThread({ kind: 'file', file });
  if (!read.ok || !('report' in read)) {
    evalActions.notice('problem', [`"${file.name}" was not imported:`, ...(read.ok ? [] : read.problems)]);
    return;
  }
  const results: EvalResults = { origin: 'import', source: file.name, records: read.records, imported: read.report };
  if (read.recordCount > read.records.length) results.recordCount = read.recordCount;
  const policies = read.report.policies.length;
  useEvalStore.setState({
    results,
    progress: null,
    notice: {
      kind: 'ok',
      lines: [`Imported "${file.name}": ${policies} ${policies === 1 ? 'policy' : 'policies'}${read.recordCount > 0 ? `, ${read.recordCount.toLocaleString('en-US')} rollouts` : ''}.`],
    },
  });
  void saveResults();
}

function stamp(): string {
  return new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-');
}

/** Downloads an export after the last scan for held keys (a file never carries one). */
async function exportText(text: string, name: string, type?: string): Promise<void> {
  const keysLeft = await keysLeftIn(text);
  if (keysLeft) evalActions.notice('problem', [`The export was not written: ${keysLeft}`]);
  else downloadText(text, name, type);
}

/** The table as CSV, the same columns as `orchestra eval --csv`. */
export async function exportCsv(): Promise<void> {
  const results = useEvalStore.getState().results;
  const report = results && reportOf(results);
  if (report) await exportText(summaryToCsv(report), `orchestra-eval-${stamp()}.csv`, 'text/csv');
}

/** The report as JSON, the same as `orchestra eval --report` writes (and this tab imports). */
export async function exportJson(): Promise<void> {
  const results = useEvalStore.getState().results;
  const report = results && reportOf(results);
  if (report) await exportText(`${JSON.stringify(report, null, 2)}\n`, `orchestra-eval-${stamp()}.json`);
}

