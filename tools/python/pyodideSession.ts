import type { PyodideAPI } from 'pyodide';
import { cutMiddle, cutNote, MAX_ERROR_CHARS } from '../sandbox/cutText.ts';
import type { SessionRunResult } from './types.ts';

/** One Pyodide interpreter that runs code snippets one at a time, each in fresh globals. */
export interface PyodideSession {
  run(code: string, maxOutputBytes: number): SessionRunResult;
  /** True once Pyodide hit a fatal (non-Python) error; the interpreter must be replaced. */
  readonly broken: boolean;
}

const USER_FILENAME = '<exec>';
const MAX_TRACEBACK_LINES = 20;

// Flushes what Python still buffers and undoes any redirection the snippet made.
const RESET_STREAMS = `
import sys as _sys
for _stream in (_sys.stdout, _sys.stderr, _sys.__stdout__, _sys.__stderr__):
    try:
        _stream.flush()
    except Exception:
        pass
_sys.stdout, _sys.stderr = _sys.__stdout__, _sys.__stderr__
`;

export function createPyodideSession(pyodide: PyodideAPI): PyodideSession {
  let broken = false;
  // Read once: after a fatal error, touching pyodide.ffi itself can throw.
  const { PythonError } = pyodide.ffi;
  // input() raises instead of waiting for a terminal that does not exist.
  pyodide.setStdin({ error: true });

  function runIsolated(code: string): void {
    const globals = pyodide.globals.get('dict')();
    try {
      globals.set('__name__', '__main__');
      pyodide.runPython(code, { globals, filename: USER_FILENAME });
    } finally {
      globals.destroy();
    }
  }

  return {
    get broken() {
      return broken;
    },
    run(code, maxOutputBytes) {
      const stdout = new CappedOutput(maxOutputBytes);
      const stderr = new CappedOutput(maxOutputBytes);
      // Raw byte writers keep the output exact; the `batched` handler drops newlines.
      pyodide.setStdout({ write: (buffer: Uint8Array) => stdout.write(buffer), isatty: false });
      pyodide.setStderr({ write: (buffer: Uint8Array) => stderr.write(buffer), isatty: false });

      const startedAt = performance.now();
      let error: string | null = null;
      try {
        runIsolated(code);
      } catch (thrown) {
        if (thrown instanceof PythonError) {
          error = exitedCleanly(thrown) ? null : lastTracebackLines(thrown.message);
        } else {
          broken = true;
          error = `Python crashed: ${thrown instanceof Error ? thrown.message : String(thrown)}. A fresh interpreter runs the next code.`;
        }
      }
      if (!broken) runIsolated(RESET_STREAMS);
      const durationMs = performance.now() - startedAt;

      return {
        stdout: stdout.textWithNote(),
        stderr: stderr.textWithNote(),
        // Capped here, in the interpreter's worker: an 8 MB exception goes no further.
        error: error === null ? null : cutMiddle(error, MAX_ERROR_CHARS),
        durationMs,
        truncated: stdout.truncated || stderr.truncated,
      };
    },
  };
}

interface PythonErrorLike {
  type: string;
  message: string;
}

/** `sys.exit()` and `sys.exit(0)` end a script successfully, as they do under CPython. */
function exitedCleanly(error: PythonErrorLike): boolean {
  if (error.type !== 'SystemExit') return false;
  const lastLine = error.message.trimEnd().split('\n').at(-1) ?? '';
  return lastLine === 'SystemExit' || lastLine === 'SystemExit: 0' || lastLine === 'SystemExit: None';
}

/**
 * Keeps the traceback header and the frames of the user's code, dropping Pyodide's own
 * frames above them, and at most the last MAX_TRACEBACK_LINES lines.
 */
export function lastTracebackLines(message: string, maxLines = MAX_TRACEBACK_LINES): string {
  const lines = message.trimEnd().split('\n');
  const firstUserFrame = lines.findIndex((line) => line.startsWith(`  File "${USER_FILENAME}"`));
  const header = lines[0];
  const kept =
    firstUserFrame > 0 && header !== undefined && header.startsWith('Traceback')
      ? [header, ...lines.slice(firstUserFrame)]
      : lines;
  return kept.slice(-maxLines).join('\n');
}

/** Collects up to `maxBytes` of a byte stream and counts what was written past them. */
export class CappedOutput {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  truncated = false;
  /** Bytes written past the cap. */
  omittedBytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Returns the number of bytes consumed, which is always all of them. */
  write(buffer: Uint8Array): number {
    const room = this.maxBytes - this.size;
    if (buffer.length > room) {
      this.truncated = true;
      this.omittedBytes += buffer.length - Math.max(0, room);
    }
    const taken = Math.min(room, buffer.length);
    if (taken > 0) {
      // The buffer is a view into Pyodide's memory and is reused: copy it.
      this.chunks.push(buffer.slice(0, taken));
      this.size += taken;
    }
    return buffer.length;
  }

  /** The text, and when it was cut a last line saying how many bytes were (what the model reads). */
  textWithNote(): string {
    const text = this.text();
    if (!this.truncated) return text;
    const omitted = this.omittedBytes + (this.size - new TextEncoder().encode(text).length);
    return `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${cutNote(omitted, 'bytes')}\n`;
  }

  text(): string {
    const bytes = new Uint8Array(this.size);
    let offset = 0;
    for (const chunk of this.chunks) {
      bytes.set(chunk, offset);
      offset += chunk.length;
    }
    const end = this.truncated ? utf8Boundary(bytes) : bytes.length;
    return new TextDecoder().decode(bytes.subarray(0, end));
  }
}

/** The length of `bytes` without a trailing, incomplete UTF-8 sequence. */
function utf8Boundary(bytes: Uint8Array): number {
  let start = bytes.length;
  // Walk back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  while (start > 0 && ((bytes[start - 1] ?? 0) & 0xc0) === 0x80) start--;
  if (start === 0) return bytes.length;
  const lead = bytes[start - 1] ?? 0;
  const expected = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - (start - 1) >= expected ? bytes.length : start - 1;
}
