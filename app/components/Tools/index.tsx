import { lazy, Suspense, useEffect, useState } from 'react';
import type { StoredCustomTool } from '../../storage/customToolRecords.ts';
import type { ToolDraft } from './toolDraft.ts';
import './Tools.css';
import { useCustomToolsActions, useCustomToolsStore, useSetupStore } from '../../state/context.tsx';

// The editor and the draft's checks (the config's schema, zod) load when a tool is opened, not
// with the first screen (docs/benchmarks.md, first-load JavaScript).
const ToolEditor = lazy(() => import('./ToolEditor.tsx').then(({ ToolEditor }) => ({ default: ToolEditor })));
const toolDrafts = () => import('./toolDraft.ts');

interface Editing {
  draft: ToolDraft;
  /** A new editor (and new Monaco models) for each tool opened. */
  key: number;
}

/** Tools the user writes: a JSON schema and JavaScript, kept in this browser and in the config. */
export function ToolsPanel() {
  const customToolsActions = useCustomToolsActions();
  const tools = useCustomToolsStore((state) => state.tools);
  const loaded = useCustomToolsStore((state) => state.loaded);
  const problem = useCustomToolsStore((state) => state.problem);
  const protocol = useSetupStore((state) => state.draft.protocol ?? 'paper');
  const [editing, setEditing] = useState<Editing | null>(null);

  useEffect(() => customToolsActions.load(), [customToolsActions]);

  const open = (draft: ToolDraft) => setEditing((current) => ({ draft, key: (current?.key ?? 0) + 1 }));
  const openTool = (tool: StoredCustomTool) => void toolDrafts().then(({ draftFromTool }) => open(draftFromTool(tool)));
  const openNew = () => void toolDrafts().then(({ starterDraft }) => open(starterDraft(tools.map((tool) => tool.name))));
  const editingId = editing?.draft.id ?? null;

  return (
    <section className="panel tools-panel" aria-labelledby="tools-heading">
      <h2 id="tools-heading">Tools</h2>
      <p className="muted">
        Write your own tool: a JSON schema for its arguments and JavaScript that runs in the sandbox. Saved in this
        browser and in exported configs.
        {protocol !== 'function-calling' ? ' The orchestrator is offered them in the function-calling protocol.' : null}
      </p>
      {problem ? (
        <p className="tool-store-problem" role="alert">
          {problem}
        </p>
      ) : null}
      {tools.length > 0 ? (
        <ul className="tool-list" aria-label="Your tools">
          {tools.map((tool) => (
            <li key={tool.id}>
              <button
                type="button"
                aria-current={tool.id === editingId || undefined}
                onClick={() => openTool(tool)}
              >
                {tool.name}
              </button>
              {tool.enabled ? null : <span className="muted"> (not offered)</span>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{loaded ? 'No tools yet.' : 'Reading your tools…'}</p>
      )}
      <button type="button" onClick={openNew}>
        New tool
      </button>
      {editing ? (
        <Suspense fallback={<p className="muted">Opening the editor…</p>}>
          <ToolEditor key={editing.key} initial={editing.draft} onClose={() => setEditing(null)} />
        </Suspense>
      ) : null}
    </section>
  );
}
