import { useRef, useState } from 'react';
import { exportConfigText, importConfigText } from '../../state/session.ts';
import { splitProblem } from './draftEdits.ts';
import './Setup.css';

/** A config is a few kilobytes; anything this large is not one. */
const MAX_CONFIG_BYTES = 1_000_000;

interface ImportFailure {
  fileName: string;
  problems: string[];
}

async function readConfigFile(file: File): Promise<ImportFailure | null> {
  if (file.size > MAX_CONFIG_BYTES) {
    return { fileName: file.name, problems: [`the file is ${(file.size / 1_000_000).toFixed(1)} MB; a config file is a few KB of JSON`] };
  }
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { fileName: file.name, problems: ['the file could not be read'] };
  }
  const outcome = importConfigText(text, file.name);
  return outcome.ok ? null : { fileName: file.name, problems: outcome.problems };
}

/** Downloads the config as the CLI reads it. Keys are not in it: the format has no field for one. */
function downloadConfig(): void {
  const url = URL.createObjectURL(new Blob([exportConfigText()], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'orchestra-config.json';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ConfigFileButtons() {
  const fileInput = useRef<HTMLInputElement>(null);
  const [failure, setFailure] = useState<ImportFailure | null>(null);

  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // Cleared so that choosing the same file again (after fixing it) imports it again.
    input.value = '';
    if (!file) return;
    setFailure(await readConfigFile(file));
  };

  return (
    <div className="config-file-buttons">
      <button type="button" onClick={() => fileInput.current?.click()}>
        Import config
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="Config file to import"
        onChange={(event) => void onFile(event.currentTarget)}
      />
      <button type="button" onClick={downloadConfig}>
        Export config
      </button>
      {failure && (
        <div className="config-import-failure" role="alert">
          <p>
            <strong>{failure.fileName}</strong> was not imported. {failure.problems.length === 1 ? 'Its problem' : 'Its problems'}:
          </p>
          <ul>
            {failure.problems.map((problem) => {
              const { field, message } = splitProblem(problem);
              return (
                <li key={problem}>
                  {field && <code>{field}</code>} {message}
                </li>
              );
            })}
          </ul>
          <p className="muted">Nothing was changed. Fix the file and import it again.</p>
          <button type="button" onClick={() => setFailure(null)}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
