import { useId, useMemo, useState } from 'react';
import type { CustomToolConfig } from '../../../workers/engine/config.ts';
import { newToolId } from '../../storage/customToolRecords.ts';
import { CodeField } from './CodeField.tsx';
import { ProblemList } from './ProblemList.tsx';
import { checkToolDraft, type ToolDraft } from './toolDraft.ts';
import { TryIt } from './TryIt.tsx';
import { useCustomToolsActions, useCustomToolsStore, useSetupStore } from '../../state/context.tsx';

const DEFAULT_CODE_TIMEOUT_SECONDS = 60;

interface ToolEditorProps {
  initial: ToolDraft;
  /** The editor is done with (the tool deleted, or a new one discarded). */
  onClose(): void;
}

/** Whether saving would change nothing (the schema compared as data, not as typed). */
const sameTool = (a: CustomToolConfig, b: CustomToolConfig) =>
  a.name === b.name &&
  a.description === b.description &&
  JSON.stringify(a.parameters) === JSON.stringify(b.parameters) &&
  a.code === b.code &&
  a.enabled === b.enabled;

/** Edits one tool: name, description, schema and code, checked as you type; save, try, delete. */
export function ToolEditor({ initial, onClose }: ToolEditorProps) {
  const customToolsActions = useCustomToolsActions();
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const [status, setStatus] = useState('');
  const tools = useCustomToolsStore((state) => state.tools);
  const saved = tools.find((tool) => tool.id === draft.id) ?? null;
  const otherNames = useMemo(() => tools.filter((tool) => tool.id !== draft.id).map((tool) => tool.name), [tools, draft.id]);
  const check = useMemo(() => checkToolDraft(draft, otherNames), [draft, otherNames]);
  const timeoutSeconds = useSetupStore((state) => state.draft.paper?.codeTimeoutSeconds) ?? DEFAULT_CODE_TIMEOUT_SECONDS;
  const unsaved = saved === null || !check.ok || !sameTool(check.tool, saved);

  const edit = (change: Partial<ToolDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
    setStatus('');
  };

  const save = () => {
    if (!check.ok) return;
    const toolId = draft.id ?? newToolId();
    customToolsActions.save({ id: toolId, ...check.tool });
    setDraft((current) => ({ ...current, id: toolId, name: check.tool.name, description: check.tool.description }));
    setStatus(`Saved ${check.tool.name}.`);
  };

  const remove = () => {
    if (draft.id) customToolsActions.remove(draft.id);
    onClose();
  };

  const problemCount = Object.values(check.problems).reduce((sum, list) => sum + list.length, 0);
  return (
    <form className="tool-editor" aria-label={`Edit tool ${draft.name || '(unnamed)'}`} onSubmit={(event) => event.preventDefault()}>
      <NameAndDescription id={id} draft={draft} problems={check.problems} onEdit={edit} />
      <label className="tool-enabled">
        <input type="checkbox" checked={draft.enabled} onChange={(event) => edit({ enabled: event.target.checked })} />
        Offer this tool to the orchestrator (function-calling protocol)
      </label>
      <CodeField
        label="Parameters (JSON schema)"
        hint='An object schema: "type": "object" and its "properties". Each call is checked against type, properties, required, enum, items and additionalProperties before the code runs. Ctrl+Space suggests keywords.'
        language="json"
        value={draft.parametersText}
        onChange={(parametersText) => edit({ parametersText })}
        problems={check.problems.parameters}
      />
      <CodeField
        label="Implementation (JavaScript)"
        hint="Runs in the QuickJS sandbox: the arguments are in `args`; `return` a JSON value. No network, storage, timers or page. Ctrl+M lets Tab move the focus out of the editor."
        language="javascript"
        value={draft.code}
        onChange={(code) => edit({ code })}
        problems={check.problems.code}
      />
      <div className="tool-actions">
        <button type="button" className="primary" onClick={save} disabled={!check.ok || !unsaved}>
          Save tool
        </button>
        <DeleteTool what={draft.id ? `Yes, delete ${saved?.name ?? 'it'}` : 'Yes, discard it'} onDelete={remove} />
        <span className="muted" role="status" aria-label="Tool save status">
          {status ||
            (problemCount > 0
              ? `${problemCount} problem${problemCount === 1 ? '' : 's'} to fix before saving.`
              : unsaved
                ? 'Unsaved changes.'
                : 'Saved.')}
        </span>
      </div>
      <TryIt
        name={draft.name}
        description={draft.description}
        parameters={check.ok ? check.tool.parameters : check.parameters}
        code={draft.code}
        timeoutMs={timeoutSeconds * 1000}
      />
    </form>
  );
}

interface NameAndDescriptionProps {
  id: string;
  draft: ToolDraft;
  problems: { name: string[]; description: string[] };
  onEdit(change: Partial<ToolDraft>): void;
}

function NameAndDescription({ id, draft, problems, onEdit }: NameAndDescriptionProps) {
  return (
    <>
      <div className="tool-field">
        <label htmlFor={`${id}-name`}>Tool name</label>
        <input
          id={`${id}-name`}
          value={draft.name}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problems.name.length > 0 || undefined}
          aria-describedby={`${id}-name-problems`}
          onChange={(event) => onEdit({ name: event.target.value })}
        />
        <ProblemList id={`${id}-name-problems`} problems={problems.name} />
      </div>
      <div className="tool-field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          rows={2}
          value={draft.description}
          aria-invalid={problems.description.length > 0 || undefined}
          aria-describedby={`${id}-description-problems`}
          onChange={(event) => onEdit({ description: event.target.value })}
        />
        <ProblemList id={`${id}-description-problems`} problems={problems.description} />
      </div>
    </>
  );
}

/** Delete, after a second press that says what goes. */
function DeleteTool({ what, onDelete }: { what: string; onDelete(): void }) {
  const [confirming, setConfirming] = useState(false);
  return confirming ? (
    <span className="tool-confirm" role="group" aria-label="Confirm delete">
      <button type="button" className="danger" onClick={onDelete}>
        {what}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep it
      </button>
    </span>
  ) : (
    <button type="button" onClick={() => setConfirming(true)}>
      Delete tool
    </button>
  );
}
