// τ²'s airline database for the airline suite: τ²-Bench's db.json is the user's (the playground
// does not ship it), chosen on disk from a τ²-Bench checkout, or downloaded on request from
// τ²-Bench's public repository once its size is shown. The orchestrator worker checks it as τ²'s
// FlightDB and keeps it in this browser, so the suite runs offline afterwards
// (workers/hosts/airlineDb.ts).

import { useEffect, useId, useRef, useState } from 'react';
import { AIRLINE_DB_LIMITS, AIRLINE_DB_URL } from '../../../workers/domains/tau2/airline/source.ts';
import type { AirlineDbAction, AirlineDbReply } from '../../../workers/hosts/airlineDb.ts';
import { formatCount, formatFileSize } from '../../format.ts';
import { usePart } from '../../state/context.tsx';
import { createEvaluation } from '../../state/evaluation.ts';
import { FileImportButton } from '../FileImportButton/index.tsx';

type Busy = null | 'checking' | 'downloading' | 'reading';

export function AirlineDatabase() {
  const evaluation = usePart(createEvaluation);
  const headingId = useId();
  const [state, setState] = useState<AirlineDbReply | null>(null);
  const [url, setUrl] = useState(AIRLINE_DB_URL);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const problem = useRef<HTMLParagraphElement>(null);
  // The side column is taller than the window: an error below the fold is brought into view.
  useEffect(() => {
    if (error) problem.current?.scrollIntoView({ block: 'nearest' });
  }, [error]);

  const ask = async (action: AirlineDbAction, doing: Busy) => {
    setBusy(doing);
    setError(null);
    try {
      const reply = await evaluation.airlineDb(action);
      setState((before) => ({ ...reply, ...(action.action === 'probe' || !before?.probe ? {} : { probe: before.probe }) }));
    } catch (thrown) {
      setError((thrown as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const group = useRef<HTMLDivElement>(null);
  useEffect(() => {
    evaluation.airlineDb({ action: 'status' }).then(
      (reply) => {
        setState(reply);
        // Nothing kept: this is what the person must act on before the suite can run.
        if (!reply.kept) group.current?.scrollIntoView({ block: 'nearest' });
      },
      (thrown: Error) => setError(thrown.message),
    );
  }, [evaluation]);

  const onFile = async (file: File) => {
    if (file.size > AIRLINE_DB_LIMITS.bytes) {
      setError(`${file.name} is ${formatCount(file.size)} bytes; τ²'s airline database is about 7 MB, and at most ${formatCount(AIRLINE_DB_LIMITS.bytes)} are read.`);
      return;
    }
    await ask({ action: 'keep', name: file.name, text: await file.text() }, 'reading');
  };

  const kept = state?.kept ?? null;
  const probe = state?.probe?.url === url ? state.probe : undefined;
  return (
    <div ref={group} className="eval-airline" role="group" aria-labelledby={headingId}>
      <h3 id={headingId}>τ²’s airline database</h3>
      {kept ? (
        <p className="eval-airline-kept" data-testid="airline-db-kept">
          Using {kept.source.kind === 'file' ? `your file ${kept.source.name}` : `the download from ${kept.source.name}`} ({formatFileSize(kept.bytes)}), kept in this
          browser since {new Date(kept.savedAt).toLocaleString()}: the suite runs offline.{' '}
          <button type="button" onClick={() => void ask({ action: 'forget' }, null)} disabled={busy !== null}>
            Forget it
          </button>
        </p>
      ) : (
        <p className="eval-hint">
          τ²-Bench’s airline runs on τ²’s own db.json (about 7 MB), which the playground does not ship. Choose it from a τ²-Bench checkout
          (data/tau2/domains/airline/db.json), or download it from τ²-Bench’s repository; it is checked, then kept in this browser.
        </p>
      )}
      <div className="eval-row">
        <FileImportButton label="Choose db.json…" busyLabel="Checking…" accept=".json,application/json" inputLabel="Airline database file" disabled={busy !== null} onFile={onFile} />
      </div>
      <DownloadRow url={url} setUrl={setUrl} probe={probe} busy={busy} ask={ask} />
      {error && (
        <p ref={problem} className="eval-notice problem" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

interface DownloadRowProps {
  url: string;
  setUrl(url: string): void;
  probe: AirlineDbReply['probe'];
  busy: Busy;
  ask(action: AirlineDbAction, doing: Busy): Promise<void>;
}

/** The download: its address, "Check its size" first, then "Download <size>"; a bar while it goes. */
function DownloadRow({ url, setUrl, probe, busy, ask }: DownloadRowProps) {
  return (
    <>
      <div className="eval-row">
        <label>
          Download from <input type="url" value={url} onChange={(event) => setUrl(event.target.value)} disabled={busy !== null} />
        </label>
        {probe ? (
          <button type="button" onClick={() => void ask({ action: 'download', url }, 'downloading')} disabled={busy !== null}>
            Download {probe.bytes === null ? '(size not given)' : formatFileSize(probe.bytes)}
          </button>
        ) : (
          <button type="button" onClick={() => void ask({ action: 'probe', url }, 'checking')} disabled={busy !== null}>
            Check its size
          </button>
        )}
      </div>
      {probe && busy === null && (
        <p className="eval-hint" data-testid="airline-db-size">
          {probe.bytes === null ? 'The server does not say how large the file is.' : `The file is ${formatFileSize(probe.bytes)}.`} Nothing is downloaded until you press Download.
        </p>
      )}
      {busy !== null && (
        <p className="eval-hint" aria-live="polite">
          <progress aria-label={busy === 'downloading' ? 'Downloading the airline database' : 'Working'} />{' '}
          {busy === 'downloading' ? `Downloading${probe?.bytes ? ` ${formatFileSize(probe.bytes)}` : ''} and checking it…` : busy === 'checking' ? 'Asking the server for the size…' : 'Checking the file…'}
        </p>
      )}
    </>
  );
}
