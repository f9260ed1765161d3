import { downloadText } from '../../download.ts';
import { useState } from 'react';
import { FileImportButton } from '../FileImportButton/index.tsx';
import { CONFIG_LIMITS } from '../../../workers/engine/configBasics.ts';
import { formatCount } from '../../format.ts';
import { splitProblem } from './draftEdits.ts';
import './Setup.css';
import { useSession } from '../../state/context.tsx';
import type { Session } from '../../state/session.ts';

interface ImportFailure {
  fileName: string;
  problems: string[];
}

async function readConfigFile(session: Session, file: File): Promise<ImportFailure | null> {
  // Not even read: a config is a few kilobytes of JSON.
  if (file.size > CONFIG_LIMITS.fileChars) {
    return {
      fileName: file.name,
      problems: [`the file is ${(file.size / 1_000_000).toFixed(1)} MB; a config file may be at most ${formatCount(CONFIG_LIMITS.fileChars)} characters`],
    };
  }
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { fileName: file.name, problems: ['the file could not be read'] };
  }
  const outcome = await session.importConfigText(text, file.name);
  return outcome.ok ? null : { fileName: file.name, problems: outcome.problems };
}

/** Downloads the config as the CLI reads it. Keys are not in it: the format has no field for one. */
function downloadConfig(session: Session): void {
  downloadText(session.exportConfigText(), 'orchestra-config.json');
}

export function ConfigFileButtons() {
  const session = useSession();
  const [failure, setFailure] = useState<ImportFailure | null>(null);

  return (
    <div className="config-file-buttons">
      <FileImportButton
        label="Import config"
        accept=".json,application/json"
        inputLabel="Config file to import"
        onFile={async (file) => setFailure(await readConfigFile(session, file))}
      />
      <button type="button" onClick={() => downloadConfig(session)}>
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
