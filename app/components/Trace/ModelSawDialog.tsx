import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ChatMessage } from '../../../workers/engine/types.ts';
import { clipForDisplay } from '../../format.ts';
import type { StepView } from '../../state/runView.ts';
import { CopyButton } from './CopyButton.tsx';
import { useTraceUi, useTraceUiStore } from './useTraceUi.ts';
import { useRunStore } from '../../state/context.tsx';

/** "What the model saw": the exact prompt, messages and raw output of one orchestrator turn. */
export function ModelSawDialog() {
  const traceUi = useTraceUiStore();
  const stepNumber = useTraceUi((state) => state.dialogStep);
  const step = useRunStore((state) => (stepNumber === null ? undefined : state.run?.steps.find((s) => s.step === stepNumber)));
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (stepNumber !== null && !dialog.open) dialog.showModal();
    if (stepNumber === null && dialog.open) dialog.close();
  }, [stepNumber]);

  return (
    <dialog ref={dialogRef} className="model-saw" aria-labelledby={headingId} onClose={() => traceUi.actions.closeDialog()}>
      {stepNumber !== null ? (
        <>
          <header className="model-saw-header">
            <h2 id={headingId}>What the model saw · step {stepNumber}</h2>
            <button type="button" onClick={() => dialogRef.current?.close()}>
              Close
            </button>
          </header>
          {step?.request ? <Turn key={stepNumber} step={step} request={step.request} /> : <p className="muted">This step sent no request.</p>}
        </>
      ) : null}
    </dialog>
  );
}

type Tab = 'prompt' | 'messages' | 'output';
const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'prompt', label: 'Rendered prompt' },
  { id: 'messages', label: 'Messages sent' },
  { id: 'output', label: 'Raw output' },
];

function Turn({ step, request }: { step: StepView; request: NonNullable<StepView['request']> }) {
  const [tab, setTab] = useState<Tab>('prompt');
  const baseId = useId();
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (move === 0) return;
    event.preventDefault();
    const index = TABS.findIndex((t) => t.id === tab);
    const next = TABS[(index + move + TABS.length) % TABS.length];
    if (!next) return;
    setTab(next.id);
    tabRefs.current.get(next.id)?.focus();
  };

  const toolNote =
    request.toolMode === 'prompt'
      ? 'The tools were rendered into the system message (prompt mode).'
      : 'The tools went to the server beside the messages, for it to render (server mode).';

  return (
    <>
      <div role="tablist" aria-label="What the model saw" className="tabs" onKeyDown={onTabKey}>
        {TABS.map(({ id, label }) => (
          <button
            key={id}
            ref={(element) => {
              if (element) tabRefs.current.set(id, element);
              else tabRefs.current.delete(id);
            }}
            type="button"
            role="tab"
            id={`${baseId}-${id}-tab`}
            aria-selected={tab === id}
            aria-controls={`${baseId}-${id}`}
            tabIndex={tab === id ? 0 : -1}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-${tab}`} aria-labelledby={`${baseId}-${tab}-tab`} className="tab-panel">
        {tab === 'prompt' ? (
          <>
            <div className="panel-actions">
              <p className="muted small">Qwen3’s chat template applied to the messages. {toolNote}</p>
              <CopyButton text={request.renderedPrompt} label="Copy prompt" />
            </div>
            <pre className="prompt">{clipForDisplay(request.renderedPrompt)}</pre>
          </>
        ) : tab === 'messages' ? (
          <MessagesTab request={request} toolNote={toolNote} />
        ) : step.output ? (
          <>
            <div className="panel-actions">
              <p className="muted small">Exactly what the orchestrator wrote, before parsing.</p>
              <CopyButton text={step.output.raw} label="Copy raw output" />
            </div>
            <pre className="prompt">{clipForDisplay(step.output.raw) || '(empty)'}</pre>
          </>
        ) : (
          <>
            <p className="muted small">Still streaming; so far:</p>
            <pre className="prompt">{clipForDisplay(step.content)}</pre>
          </>
        )}
      </div>
    </>
  );
}

function MessageItem({ message }: { message: ChatMessage }) {
  return (
    <li className={`message role-${message.role}`}>
      <span className="message-role">{message.role === 'tool' ? `tool · ${message.name}` : message.role}</span>
      <pre>{clipForDisplay(message.content)}</pre>
      {message.role === 'assistant' && message.toolCalls?.length ? <pre>{clipForDisplay(JSON.stringify(message.toolCalls, null, 2))}</pre> : null}
    </li>
  );
}

/** The messages as sent to the provider (and the tools, in server mode). */
function MessagesTab({ request, toolNote }: { request: NonNullable<StepView['request']>; toolNote: string }) {
  return (
    <>
      <div className="panel-actions">
        <p className="muted small">
          {request.messages.length} message{request.messages.length === 1 ? '' : 's'}, as sent to the provider. {toolNote}
        </p>
        <CopyButton text={JSON.stringify(request.messages, null, 2)} label="Copy as JSON" />
      </div>
      <ol className="messages" aria-label="Messages">
        {request.messages.map((message, i) => (
          <MessageItem key={i} message={message} />
        ))}
      </ol>
      {request.toolMode === 'server' ? (
        <>
          <span className="section-label">Tools sent</span>
          <pre>{clipForDisplay(JSON.stringify(request.tools, null, 2))}</pre>
        </>
      ) : null}
    </>
  );
}
