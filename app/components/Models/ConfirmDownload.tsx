import { useEffect, useId, useRef } from 'react';
import { estimateVramMB, type LocalModel } from '../../../workers/backends/webllm/catalogue.ts';
import { describeStorage, type StorageUse } from '../../../workers/backends/webllm/modelCache.ts';
import type { LocalModelRequest } from '../../../workers/models/localModels.ts';
import { formatCount } from '../../format.ts';
import { formatBytes, formatMegabytes } from './figures.ts';

export interface PendingDownload {
  model: LocalModel;
  request: LocalModelRequest;
  contextWindow: number;
}

/** Asks before a download, saying how large it is and where it will be kept. */
export function ConfirmDownload({
  pending,
  storage,
  onConfirm,
  onClose,
}: {
  pending: PendingDownload | null;
  storage: StorageUse | null;
  onConfirm(pending: PendingDownload): void;
  onClose(): void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (pending && !element.open) element.showModal();
    if (!pending && element.open) element.close();
  }, [pending]);

  return (
    <dialog ref={dialog} className="model-confirm" aria-labelledby={titleId} onClose={onClose}>
      {pending ? (
        <>
          <h3 id={titleId}>Download {pending.model.label}?</h3>
          <p>
            About <strong>{formatBytes(pending.model.downloadBytesEstimate)}</strong> of weights will be downloaded and kept in
            this browser’s cache, so loading it next time needs no download. With a{' '}
            {formatCount(pending.contextWindow)}-token context window it then takes about{' '}
            {formatMegabytes(estimateVramMB(pending.model, pending.contextWindow))} of GPU memory.
          </p>
          {storage ? <p className="muted">{describeStorage(storage)}</p> : null}
          <div className="model-confirm-buttons">
            <button type="button" className="primary" onClick={() => onConfirm(pending)}>
              Download {formatBytes(pending.model.downloadBytesEstimate)} and load
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
