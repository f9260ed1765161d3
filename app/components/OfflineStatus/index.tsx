import { useSyncExternalStore } from 'react';
import { createOfflineClient } from '../../offline/serviceWorkerClient.ts';
import './OfflineStatus.css';
import { usePart, useRunStore } from '../../state/context.tsx';

const READY_DETAIL = 'The app, the search corpus and Python are saved in this browser: it opens and runs without a network.';

/** In the header: whether the app works offline yet, and a new version when one is deployed. */
export function OfflineStatus() {
  const offline = usePart(createOfflineClient);
  const state = useSyncExternalStore(offline.subscribe, offline.get);
  const running = useRunStore((store) => store.phase !== 'idle');
  if (state.kind === 'unavailable' || state.kind === 'failed') return null;
  return (
    <div className="offline-status" role="status" aria-label="Offline use">
      {state.kind === 'saving' && <span className="muted">Saving for offline use…</span>}
      {state.kind === 'ready' && (
        <span className="offline-ready" title={READY_DETAIL}>
          Works offline
        </span>
      )}
      {state.kind === 'reloading' && <span className="muted">Reloading into the new version…</span>}
      {state.kind === 'update' && (
        <>
          <span>A new version is ready.</span>
          <button
            type="button"
            className="small"
            onClick={offline.reloadIntoUpdate}
            disabled={running}
            title={running ? 'After the run: reloading would end it.' : undefined}
          >
            Reload
          </button>
        </>
      )}
    </div>
  );
}
