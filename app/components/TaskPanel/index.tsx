import type { RunPhase } from '../../state/runStore.ts';
import { lazy, Suspense, useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useSampleTasks } from './useSampleTasks.ts';
import { Options } from './Options.tsx';
import './TaskPanel.css';
import { useAppStores, useRunStore, useSession, useSetupStore, useViewActions, useViewStore } from '../../state/context.tsx';
import { formatCount } from '../../format.ts';
import { MAX_TASK_CHARS } from '../../../workers/engine/events.ts';

const DomainChoice = lazy(() => import('./DomainChoice.tsx').then(({ DomainChoice }) => ({ default: DomainChoice })));
const DomainNote = lazy(() => import('./DomainChoice.tsx').then(({ DomainNote }) => ({ default: DomainNote })));

const PROTOCOLS = [
  { value: 'paper', label: 'Paper', hint: 'search, enhance_reasoning and answer, each backed by a model you choose' },
  { value: 'function-calling', label: 'Function calling', hint: 'any tools, one growing conversation' },
] as const;

// eslint-disable-next-line max-lines-per-function -- the Task form's fields and their shared disabled state while a run goes
export function TaskPanel() {
  const session = useSession();
  const viewActions = useViewActions();
  const task = useViewStore((state) => state.task);
  const domain = useViewStore((state) => state.domain);
  const [manual, setManual] = useState(false);
  const [taskProblem, setTaskProblem] = useState<string | null>(null);
  const taskBox = useRef<HTMLTextAreaElement>(null);
  const phase = useRunStore((state) => state.phase);
  const taskId = useId();
  const busy = phase !== 'idle';

  const run = () => {
    const outcome = session.startRun(task, { manual, domain });
    if (outcome !== 'empty_task' && outcome !== 'task_too_long') return;
    setTaskProblem(
      outcome === 'empty_task'
        ? 'Type a task first.'
        : `The task is ${formatCount(task.trim().length)} characters long; a task may be ${formatCount(MAX_TASK_CHARS)}. Shorten it, or put the material in Documents.`,
    );
    taskBox.current?.focus();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run();
  };
  // Ctrl+Enter / Cmd+Enter runs from inside the task box.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (!busy) run();
    }
  };
  const chooseTask = (text: string) => {
    viewActions.setTask(text);
    setTaskProblem(null);
  };

  return (
    <section className="panel task-panel" aria-labelledby={`${taskId}-heading`}>
      {/* The domain sits on the heading's line, so the preferences stay above the fold. */}
      <div className="task-heading">
        <h2 id={`${taskId}-heading`}>Task</h2>
        <Suspense fallback={null}>
          <DomainChoice id={`${taskId}-domain`} value={domain} disabled={busy} onChoose={viewActions.setDomain} />
        </Suspense>
      </div>
      <form onSubmit={submit}>
        <label htmlFor={taskId} className="visually-hidden">
          Task
        </label>
        <textarea
          ref={taskBox}
          id={taskId}
          value={task}
          aria-invalid={taskProblem !== null}
          aria-describedby={taskProblem !== null ? `${taskId}-problem` : undefined}
          onChange={(event) => chooseTask(event.target.value)}
          onKeyDown={onKeyDown}
          rows={3}
          placeholder="Ask something that needs looking up or working out…"
        />
        {taskProblem !== null && (
          <p id={`${taskId}-problem`} className="task-problem" role="alert">
            {taskProblem}
          </p>
        )}
        <SampleTasks task={task} onChoose={chooseTask} />
        <ProtocolChoice name={`${taskId}-protocol`} disabled={busy} domain={domain} />
        <label className="task-manual">
          <input
            type="checkbox"
            checked={manual}
            disabled={busy}
            aria-describedby={`${taskId}-manual-hint`}
            onChange={(event) => setManual(event.target.checked)}
          />
          <span>
            <strong>You are the orchestrator</strong>
            <span id={`${taskId}-manual-hint`} className="muted task-hint">
              Pick each turn’s tool and model yourself (paper protocol); experts still answer. Your thinking time counts in the run’s time.
            </span>
          </span>
        </label>
        <RunAndStop phase={phase} onStop={session.stopRun} />
      </form>
    </section>
  );
}

/** The local corpus's sample tasks, to pick one into the task box. It names the sample the task
 * box holds (picked here, or filled in by "Try the demo"), and offers the list again once the task
 * is edited away from it. */
function SampleTasks({ task, onChoose }: { task: string; onChoose(task: string): void }) {
  const samples = useSampleTasks();
  if (samples.status === 'failed') return <p className="muted">Sample tasks could not be loaded ({samples.message}).</p>;
  if (samples.status !== 'ready' || samples.tasks.length === 0) return null;
  const shown = samples.tasks.find((sample) => sample.question === task.trim());
  return (
    <label className="task-sample">
      <span>Sample task</span>
      <select
        value={shown?.id ?? ''}
        onChange={(event) => {
          const chosen = samples.tasks.find((sample) => sample.id === event.target.value);
          if (chosen) onChoose(chosen.question);
        }}
      >
        <option value="">Pick one…</option>
        <Options items={samples.tasks.map((sample) => ({ value: sample.id, label: sample.question }))} />
      </select>
    </label>
  );
}

/** The config's protocol, chosen here as in Setup. A run in a domain speaks function calling
 * whatever the config says: the choice waits, and the hint says what the domain's run gets. */
function ProtocolChoice({ name, disabled, domain }: { name: string; disabled: boolean; domain: string }) {
  const { setup } = useAppStores();
  const protocol = useSetupStore((state) => state.draft.protocol ?? 'paper');
  const choose = (value: 'paper' | 'function-calling') => setup.actions.setDraft({ ...setup.getState().draft, protocol: value });
  const chosen = PROTOCOLS.find((option) => option.value === protocol) ?? PROTOCOLS[0];
  // One line of choices, the chosen one's meaning under it: the Task tab's controls and the
  // preferences fit a laptop's screen together (1280 × 800).
  return (
    <fieldset className="task-protocol" disabled={disabled || domain !== ''} aria-describedby={`${name}-hint`}>
      <legend>Protocol</legend>
      <span className="task-protocol-options">
        {PROTOCOLS.map((option) => (
          <label key={option.value} title={option.hint}>
            <input type="radio" name={name} value={option.value} checked={protocol === option.value} onChange={() => choose(option.value)} />
            <span>{option.label}</span>
          </label>
        ))}
      </span>
      <span id={`${name}-hint`} className="muted task-hint">
        {domain === '' ? (
          `${chosen.label}: ${chosen.hint}.`
        ) : (
          <Suspense fallback={domain}>
            <DomainNote domain={domain} />
          </Suspense>
        )}
      </span>
    </fieldset>
  );
}

/** Run (the form's submit) and Stop. They are marked unavailable with aria-disabled rather than
 * disabled, so the keyboard's focus is never dropped on the page; it follows to the button that now
 * applies, also from a control the run's start took off the screen. */
function RunAndStop({ phase, onStop }: { phase: RunPhase; onStop(): void }) {
  const busy = phase !== 'idle';
  const runButton = useRef<HTMLButtonElement>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const focused = document.activeElement;
    // A run started from elsewhere ("Try the demo", which goes as the run starts) leaves the focus
    // nowhere: it comes here too, to Stop, the next thing to do.
    const lost = focused === null || focused === document.body;
    if (busy && (focused === runButton.current || lost)) stopButton.current?.focus({ preventScroll: true });
    if (!busy && focused === stopButton.current) runButton.current?.focus({ preventScroll: true });
  }, [busy]);
  return (
    <div className="task-actions">
      <button ref={runButton} type="submit" className="primary" aria-disabled={busy}>
        Run
      </button>
      <button ref={stopButton} type="button" onClick={onStop} aria-disabled={phase !== 'running' && phase !== 'starting'}>
        Stop
      </button>
      <span className="muted task-shortcut keyboard-hint">Ctrl+Enter runs</span>
    </div>
  );
}
