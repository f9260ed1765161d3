// The one "Import …" button: a hidden file input behind a button that says it is busy while the
// chosen file is read, and forgets the choice afterwards so the same file (fixed) can be chosen again.

import { useRef, useState } from 'react';

interface FileImportButtonProps {
  /** The button's text, e.g. "Import config". */
  label: string;
  /** The button's text while a file is read; `label` when not given. */
  busyLabel?: string;
  /** The file input's `accept`. */
  accept: string;
  /** The file input's accessible name (tests and assistive technology find it by this). */
  inputLabel: string;
  testId?: string;
  /** Not to be pressed now (another action is under way). */
  disabled?: boolean;
  /** Reads the chosen file; the button is busy until it settles. */
  onFile(file: File): Promise<void>;
}

export function FileImportButton({ label, busyLabel, accept, inputLabel, testId, disabled = false, onFile }: FileImportButtonProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const onChange = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // Cleared so that choosing the same file again (after fixing it) reads it again.
    input.value = '';
    if (!file) return;
    setBusy(true);
    try {
      await onFile(file);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <button
        type="button"
        // aria-disabled, not disabled: the button keeps its focus while the file is read.
        aria-disabled={busy || disabled}
        aria-busy={busy}
        onClick={() => {
          if (!busy && !disabled) fileInput.current?.click();
        }}
      >
        {busy ? (busyLabel ?? label) : label}
      </button>
      <input
        ref={fileInput}
        type="file"
        accept={accept}
        hidden
        aria-label={inputLabel}
        data-testid={testId}
        onChange={(event) => void onChange(event.currentTarget)}
      />
    </>
  );
}
