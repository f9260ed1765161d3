// What the Evaluate tab's controls do: read a suite, start and stop an evaluation in the
// orchestrator worker (workers/hosts/evalHost.ts drives workers/eval/runner.ts, the CLI's loop), take
// its progress and records, import the CLI's results, export the report. Like session.ts for a
// run, the one place these act through; its store (evalStore.ts) only holds state. One per set
// of stores, made with the Evaluate tab or the worker's first evaluation message (appStores.ts).

import { newRunId } from '../../workers/engine/ids.ts';
import { summarizeEval, summaryToCsv, type EvalReport, type EvalSummary } from '../../workers/eval/results.ts';
import { SUITE_LIMITS } from '../../workers/eval/suite.ts';
import type { BuiltInSuite } from '../../workers/eval/builtInSuites.ts';
import { isTau2SuiteName, type Tau2SuiteName } from '../../workers/domains/tau2/suiteNames.ts';
import { simulatedUserProblem } from '../components/Evaluate/tau2View.ts';
import type { EvalFromWorker, EvalRequest, EvalStart, EvalSuiteInput } from '../../workers/hosts/messages.ts';
import { localQwen3Policy, policyNames, readBudget, readTaskLimit, savedResults } from '../components/Evaluate/evalView.ts';
import { deleteLastResults, writeLastResults } from '../storage/evalResultsDb.ts';
import type { ResultsReadReply, ResultsReadRequest } from '../worker/resultsRead.ts';
import { createEvalStore, type EvalResults, type EvalStore, type SuiteChoice } from './evalStore.ts';
import type { ModelsStore } from './modelsStore.ts';
import type { ConfigDraft } from './setupStore.ts';
import type { WorkerClient } from './workerClient.ts';

export const ROLLOUTS_MAX = 100;
export const CONCURRENCY_MAX = 16;

function suiteInput(suite: SuiteChoice): EvalSuiteInput {
  return suite.kind === 'builtin' ? suite : { kind: 'file', name: suite.name, text: suite.text };
}

/** The report on screen: computed from the records, or as imported. */
export function reportOf(results: EvalResults): EvalSummary | EvalReport | null {
  if (results.imported) return results.imported;
  if (!results.plan) return null;
  return summarizeEval({ ...results.plan, records: results.records });
}

function stamp(): string {
  return new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-');
}

export interface EvaluationDeps {
  /** The worker's evaluation side (appStores.ts: asking it marks the evaluation as loaded). */
  evaluationWorker(): Pick<WorkerClient, 'request' | 'tell'>;
  session: { currentConfig(): ConfigDraft; keysLeftIn(text: string): Promise<string | null> };
  models: ModelsStore;
  platform: {
    download(text: string, fileName: string, type?: string): void;
    /** Reads results (a file, or the ones kept) off the page's thread, under the caps. */
    readResults(request: ResultsReadRequest): Promise<ResultsReadReply>;
  };
}

export class Evaluation {
  readonly store: EvalStore = createEvalStore();
  private restoring = false;

  constructor(private readonly deps: EvaluationDeps) {}


  /** Asks the worker what the chosen suite holds (its tasks, or every problem with its line); a
   * reading of a suite chosen before the last one is dropped. */
  private readChosenSuite = (): void => {
    const requestId = newRunId();
    this.store.setState({ reading: null, readingId: requestId });
    this.deps
      .evaluationWorker()
      .request('read_suite', { suite: suiteInput(this.store.getState().suite) })
      .then(
        (reading) => {
          if (requestId === this.store.getState().readingId) this.store.setState({ reading });
        },
        // The worker was lost: workerLost says so.
        () => {},
      );
  };

  chooseBuiltInSuite = (name: BuiltInSuite | Tau2SuiteName): void => {
    this.store.setState({ suite: { kind: 'builtin', name } });
    this.readChosenSuite();
  };

  /** Reads the suite the page shows first (once, when the tab opens). */
  readSuiteOnce = (): void => {
    const { reading, readingId } = this.store.getState();
    if (reading === null && readingId === null) this.readChosenSuite();
  };

  /** A JSONL suite from the file picker or a drop: its size is checked before it is read. */
  chooseSuiteFile = async (file: File): Promise<void> => {
    if (file.size > SUITE_LIMITS.fileChars) {
      this.store.actions.notice('problem', [`"${file.name}" was not read: it is ${file.size.toLocaleString('en-US')} bytes; a suite may hold ${SUITE_LIMITS.fileChars.toLocaleString('en-US')}.`]);
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      this.store.actions.notice('problem', [`"${file.name}" could not be read: ${(error as Error).message}`]);
      return;
    }
    this.store.actions.clearNotice();
    this.store.setState({ suite: { kind: 'file', name: file.name, text, bytes: file.size } });
    this.readChosenSuite();
  };

  /** What the tab's controls would run, or why they cannot. */
  private requestFromControls = (): { ok: true; request: EvalRequest } | { ok: false; problems: string[] } => {
    const state = this.store.getState();
    const problems: string[] = [];
    if (state.reading === null) problems.push('The suite is still being read.');
    else if (!state.reading.ok) problems.push('The suite has problems (listed under it): pick another or fix the file.');
    const policies = policyNames(state.policies);
    let config = this.deps.session.currentConfig();
    if (state.qwen3 !== null) {
      const model = this.deps.models.getState().loaded.find((loaded) => loaded.id === state.qwen3);
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
    const limit = readTaskLimit(state.limit);
    if (!limit.ok) problems.push(limit.problem);
    // A τ² suite's tasks talk with a simulated user (the CLI's --user); other suites have none.
    const tau2 = state.suite.kind === 'builtin' && isTau2SuiteName(state.suite.name);
    const userProblem = tau2 ? simulatedUserProblem(config, state.user) : null;
    if (userProblem) problems.push(userProblem);
    if (problems.length > 0 || !budget.ok || !limit.ok) return { ok: false, problems };
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
        ...(limit.limit === undefined ? {} : { limit: limit.limit }),
        ...(tau2 ? { user: state.user } : {}),
        previous: [],
      },
    };
  };

  private launch = (request: EvalRequest, results: EvalResults): void => {
    this.store.setState({ phase: 'starting', evalId: request.evalId, progress: null, notice: null, results });
    this.deps
      .evaluationWorker()
      .request('start_eval', { request })
      .then(
        (start) => this.started(request.evalId, start),
        // The worker was lost: workerLost says so.
        () => {},
      );
  };

  /** The worker's reply to a start: prepared, its rollouts to follow, or refused. */
  private started = (evalId: string, start: EvalStart): void => {
    if (evalId !== this.store.getState().evalId) return;
    if (!start.ok) {
      this.store.setState({ phase: 'idle', evalId: null, notice: { kind: 'problem', lines: ['The evaluation could not start:', ...start.problems] } });
      return;
    }
    this.store.setState((now) => ({
      phase: now.phase === 'stopping' ? 'stopping' : 'running',
      results: now.results && {
        ...now.results,
        source: start.source,
        plan: { taskIds: start.taskIds, policies: start.policies, rollouts: start.rollouts },
      },
    }));
  };

  /** Runs the suite under the chosen policies with the config and preferences set now. */
  startEvaluation = (): void => {
    if (this.store.getState().phase !== 'idle') return;
    const built = this.requestFromControls();
    if (!built.ok) {
      this.store.actions.notice('problem', built.problems);
      return;
    }
    this.launch(built.request, { origin: 'run', source: '', records: [], request: built.request });
  };

  /** Goes on with a stopped evaluation: the rollouts it recorded are skipped (the runner's resume). */
  resumeEvaluation = (): void => {
    const { phase, results } = this.store.getState();
    if (phase !== 'idle' || results?.origin !== 'run' || !results.request) return;
    const request: EvalRequest = { ...results.request, evalId: newRunId(), previous: results.records };
    this.launch(request, { ...results, request, end: undefined });
  };

  stopEvaluation = (): void => {
    const { phase, evalId } = this.store.getState();
    if (!evalId || (phase !== 'running' && phase !== 'starting')) return;
    this.store.setState({ phase: 'stopping' });
    this.deps.evaluationWorker().tell('stop_eval', { evalId });
  };

  /** A message of the worker's evaluation side (session.ts hands them over). */
  receive = (message: EvalFromWorker): void => {
    const state = this.store.getState();
    // A rollout's events are recorded in the run history (appStores.ts).
    if (message.type === 'eval_events' || message.evalId !== state.evalId) return;
    switch (message.type) {
      case 'eval_progress': {
        const { event } = message;
        this.store.setState((now) => ({
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
        this.store.setState((now) => ({
          phase: 'idle',
          evalId: null,
          progress: end.progress,
          results: now.results && { ...now.results, end },
          notice: { kind: 'ok', lines },
        }));
        void this.saveResults();
        return;
      }
      case 'eval_failed':
        this.store.setState({ phase: 'idle', evalId: null, notice: { kind: 'problem', lines: [message.message] } });
        void this.saveResults();
        return;
    }
  };

  /** The worker was lost (and the evaluation in it): what was recorded stays; Resume goes on. */
  workerLost = (message: string): void => {
    if (this.store.getState().phase === 'idle') return;
    this.store.setState({ phase: 'idle', evalId: null, notice: { kind: 'problem', lines: [`The evaluation ended: ${message}`] } });
    void this.saveResults();
  };

  /** Keeps the results on screen for the next load (capped); a failure to keep them is said, and
   * the results stay on screen. */
  private saveResults = async (): Promise<void> => {
    const { results } = this.store.getState();
    const report = results && reportOf(results);
    if (!results || !report) return;
    const { saved } = savedResults(results, report, new Date());
    const recordsLeftOut = (results.recordCount ?? results.records.length) - saved.records.length;
    try {
      await writeLastResults(saved);
    } catch (error) {
      this.addNoticeLine(`These results will not be shown after a reload: ${(error as Error).message}`);
      return;
    }
    if (recordsLeftOut > 0) this.addNoticeLine(`After a reload the table and charts come back whole, with the first ${saved.records.length.toLocaleString('en-US')} rollouts listed (${recordsLeftOut.toLocaleString('en-US')} more: export the JSON now).`);
  };

  private addNoticeLine = (line: string): void => {
    this.store.setState((now) => ({ notice: { kind: now.notice?.kind ?? 'ok', lines: [...(now.notice?.lines ?? []), line] } }));
  };


  /** Shows the results kept by the last load (once, when the tab opens), if nothing is on screen.
   * They are read and checked off the page's thread (app/worker/resultsRead.worker.ts). */
  restoreResultsOnce = async (): Promise<void> => {
    if (this.restoring) return;
    this.restoring = true;
    const read = await this.deps.platform.readResults({ kind: 'saved' });
    if (!read.ok) {
      this.store.actions.notice('problem', read.problems.map((problem) => (problem.startsWith('The results kept') ? problem : `Your last evaluation could not be read back: ${problem}`)));
      return;
    }
    const state = this.store.getState();
    // An evaluation started or a file imported meanwhile wins.
    if (!('saved' in read) || read.saved === null || state.results !== null || state.phase !== 'idle') return;
    const { saved } = read;
    this.store.setState({ results: { origin: saved.origin, source: saved.source, records: saved.records, imported: saved.report, savedAt: saved.savedAt } });
  };

  /** Takes the results off the screen and out of storage. */
  clearResults = async (): Promise<void> => {
    if (this.store.getState().phase !== 'idle') return;
    this.store.setState({ results: null, progress: null, notice: null });
    try {
      await deleteLastResults();
    } catch (error) {
      this.store.actions.notice('problem', [(error as Error).message]);
    }
  };


  /** Reads what `orchestra eval` wrote (--out, --json or --report) off the page's thread, under the
   * caps (RESULTS_LIMITS), and shows it like a run here. */
  importResultsFile = async (file: File): Promise<void> => {
    if (this.store.getState().phase !== 'idle') return;
    const read = await this.deps.platform.readResults({ kind: 'file', file });
    if (!read.ok || !('report' in read)) {
      this.store.actions.notice('problem', [`"${file.name}" was not imported:`, ...(read.ok ? [] : read.problems)]);
      return;
    }
    const results: EvalResults = { origin: 'import', source: file.name, records: read.records, imported: read.report };
    if (read.recordCount > read.records.length) results.recordCount = read.recordCount;
    const policies = read.report.policies.length;
    const rollouts = read.recordCount > 0 ? `, ${read.recordCount.toLocaleString('en-US')} rollouts` : '';
    this.store.setState({
      results,
      progress: null,
      notice: { kind: 'ok', lines: [`Imported "${file.name}": ${policies} ${policies === 1 ? 'policy' : 'policies'}${rollouts}.`] },
    });
    void this.saveResults();
  };

  /** Downloads an export after the last scan for held keys (a file never carries one). */
  private exportText = async (text: string, name: string, type?: string): Promise<void> => {
    const keysLeft = await this.deps.session.keysLeftIn(text);
    if (keysLeft) this.store.actions.notice('problem', [`The export was not written: ${keysLeft}`]);
    else this.deps.platform.download(text, name, type);
  };


  /** The table as CSV, the same columns as `orchestra eval --csv`. */
  exportCsv = async (): Promise<void> => {
    const results = this.store.getState().results;
    const report = results && reportOf(results);
    if (report) await this.exportText(summaryToCsv(report), `orchestra-eval-${stamp()}.csv`, 'text/csv');
  };

  /** The report as JSON, the same as `orchestra eval --report` writes (and this tab imports). */
  exportJson = async (): Promise<void> => {
    const results = this.store.getState().results;
    const report = results && reportOf(results);
    if (report) await this.exportText(`${JSON.stringify(report, null, 2)}\n`, `orchestra-eval-${stamp()}.json`);
  };
}

/** The evaluation of a set of stores (appStores.ts's part makes it once). */
export function createEvaluation(stores: EvaluationDeps): Evaluation {
  return new Evaluation(stores);
}
