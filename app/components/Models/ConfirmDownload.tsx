import { useEffect, useId, useRef, useState } from 'react';
import { estimateVramMB, type ForeignAddress, type LocalModel } from '../../../workers/backends/webllm/catalogue.ts';
import { describeStorage, type StorageUse } from '../../../workers/backends/webllm/modelCache.ts';
import type { LocalModelRequest } from '../../../workers/hosts/models/modelState.ts';
import { formatBytes, formatCount } from '../../format.ts';
import { formatMegabytes } from './figures.ts';
import { useModelsStore } from '../../state/context.tsx';

/** How long the question waits for the cache check before asking as if the files were not kept. */
const CACHE_CHECK_PATIENCE_MS = 3_000;

export interface PendingDownload {
  model: LocalModel;
  request: LocalModelRequest;
  contextWindow: number;
}

/** Asks before a download, saying how large it is and where it will be kept; and before loading
 * files from addresses outside the catalogue (`untrusted`), naming each one. */
export function ConfirmDownload({
  pending,
  storage,
  untrusted,
  onConfirm,
  onClose,
}: {
  pending: PendingDownload | null;
  storage: StorageUse | null;
  /** The pending model's addresses outside the catalogue the user has not agreed to yet. */
  untrusted: readonly ForeignAddress[];
  onConfirm(pending: PendingDownload, trusted: readonly ForeignAddress[]): void;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const { checking, cached } = useCachedState(pending);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (pending && !element.open) element.showModal();
    if (!pending && element.open) element.close();
  }, [pending]);

  const size = pending ? formatBytes(pending.model.downloadBytesEstimate) : '';
  const action = cached ? 'load' : `download ${size} and load`;
  return (
    <dialog ref={dialog} className="model-confirm" aria-labelledby={titleId} onClose={onClose}>
      {pending ? (
        <>
          <h3 id={titleId}>
            {checking ? `${pending.model.label}: is it in this browser already?` : `${cached ? 'Load' : 'Download'} ${pending.model.label}?`}
          </h3>
          {untrusted.length > 0 ? (
            <div className="model-foreign" role="note" aria-label="Addresses outside the catalogue">
              <p>
                <strong>These files do not come from web-llm’s catalogue.</strong> The config or the address you gave names:
              </p>
              <ul>
                {untrusted.map((address) => (
                  <li key={address.url}>
                    {address.what === 'model library' ? 'Model library (code that runs on this computer’s GPU)' : 'Weights'}:{' '}
                    <code>{address.url}</code>
                  </li>
                ))}
              </ul>
              <p>Load them only if you trust where they come from. You are asked once per address, for this config.</p>
            </div>
          ) : null}
          {checking ? <p className="muted">Checking this browser’s cache…</p> : null}
          {cached || checking ? null : (
            <p>
              About <strong>{size}</strong> of weights will be downloaded and kept in this browser’s cache, so loading it next
              time needs no download. With a {formatCount(pending.contextWindow)}-token context window it then takes about{' '}
              {formatMegabytes(estimateVramMB(pending.model, pending.contextWindow))} of GPU memory.
            </p>
          )}
          {storage && !cached && !checking ? <p className="muted">{describeStorage(storage)}</p> : null}
          <div className="model-confirm-buttons">
            <button type="button" className="primary" disabled={checking} onClick={() => onConfirm(pending, untrusted)}>
              {checking ? 'Checking…' : untrusted.length > 0 ? `Trust ${untrusted.length === 1 ? 'it' : 'them'} and ${action}` : `${action[0]!.toUpperCase()}${action.slice(1)}`}
            </button>
            <button type="button" onClick={onClose}>
              Not now
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}

/** Whether the pending model's files are in the browser cache. Unknown until the cache check (run
 * when the panel came on screen) answers: the question waits for it rather than asking "Download?"
 * and turning into "Load?" a moment later. */
function useCachedState(pending: PendingDownload | null): { checking: boolean; cached: boolean } {
  const cachedState = useModelsStore((state) => (pending ? state.cached[pending.model.id] : undefined));
  const cacheProblem = useModelsStore((state) => state.cacheProblem);
  const [gaveUpWaitingFor, setGaveUpWaitingFor] = useState<PendingDownload | null>(null);
  useEffect(() => {
    if (!pending) return;
    // A check that never answers (a busy or restarting worker) must not hold the dialog: ask as if not kept.
    const timer = setTimeout(() => setGaveUpWaitingFor(pending), CACHE_CHECK_PATIENCE_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  return { checking: pending !== null && cachedState === undefined && cacheProblem === null && gaveUpWaitingFor !== pending, cached: cachedState === true };
}
