import { useId, useRef, useState } from 'react';
import type { LocalModelRequest } from '../../../workers/hosts/models/modelState.ts';
import { aliasChoices, asExpert, asOrchestrator, describeUse } from './localDraft.ts';
import { useAppStores, useSetupActions, useSetupStore, useViewActions } from '../../state/context.tsx';

interface UseInSetupProps {
  request: LocalModelRequest;
  label: string;
  /** The backend kind whose providers run it (workers/backends/registry.ts). */
  kind: string;
}

/** One click puts a loaded model to work in Setup, as the orchestrator or behind an expert alias,
 * and says what changed; focus goes to "Open Setup", where a person checks it. */
export function UseInSetup({ request, label, kind }: UseInSetupProps) {
  const setupActions = useSetupActions();
  const viewActions = useViewActions();
  const stores = useAppStores();
  const draft = useSetupStore((state) => state.draft);
  const choices = aliasChoices(draft);
  const [choice, setChoice] = useState('');
  const [said, setSaid] = useState<string | null>(null);
  const openSetup = useRef<HTMLButtonElement>(null);
  const aliasId = useId();
  const chosen = choices.some((option) => option.value === choice) ? choice : (choices[0]?.value ?? '');
  const isOrchestrator = draft.orchestrator.model === request.id && draft.providers[draft.orchestrator.provider]?.kind === kind;
  const chosenName = chosen.startsWith('alias:') ? `alias ${chosen.slice('alias:'.length)}` : `a new ${chosen.slice('new:'.length)} alias`;

  const apply = (edit: (before: typeof draft) => typeof draft) => {
    const before = stores.setup.getState().draft;
    const after = edit(before);
    setupActions.setDraft(after);
    setSaid(describeUse(before, after, request.id));
    // The button pressed may now be disabled: the next thing to do is to look at Setup.
    requestAnimationFrame(() => openSetup.current?.focus());
  };

  return (
    <>
      <button type="button" className="primary" disabled={isOrchestrator} onClick={() => apply((before) => asOrchestrator(before, request, kind))}>
        {isOrchestrator ? 'Is the orchestrator' : 'Use as orchestrator'}
      </button>
      <span className="model-alias">
        <label htmlFor={aliasId}>Expert alias</label>
        <select id={aliasId} value={chosen} onChange={(event) => setChoice(event.target.value)}>
          {choices.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <button type="button" disabled={chosen === ''} onClick={() => apply((before) => asExpert(before, chosen, request, label, kind))}>
          Use as expert for {chosenName}
        </button>
      </span>
      <p className="model-used" role="status" aria-label={`Setup for ${label}`}>
        {said}
        {said ? (
          <>
            {' '}
            <button type="button" className="link-button" ref={openSetup} onClick={() => viewActions.openSideTab('setup')}>
              Open Setup
            </button>
          </>
        ) : null}
      </p>
    </>
  );
}
