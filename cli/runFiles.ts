// Run files on disk: where `run --save` writes one and how `replay` reads one. The format and its
// checks are workers/history/runFile.ts, shared with the playground.

import { accessSync, constants, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { FileRefused, readRegularFile } from './files.ts';
import { dirname, resolve } from 'node:path';
import type { RunEvent } from '../workers/engine/events.ts';
import { MAX_RUN_FILE_BYTES, readRunFile, runFileSizeProblem, writeRunFile, type ReadRunFileOutcome } from '../workers/history/runFile.ts';
import { keysLeftProblem, Redactor, type Secret } from '../workers/engine/redact.ts';
import { UsageError } from './usage.ts';
import { parseConfig } from '../workers/hosts/config.ts';

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (error as Error).message;
}

/** Refuses, before a run starts, a path its run file could not be written to. */
export function checkSavePath(path: string, usage: string): void {
  const target = resolve(path);
  try {
    if (existsSync(target)) {
      if (statSync(target).isDirectory()) throw new UsageError(`Cannot write the run file "${path}": it is a folder.`, usage);
      accessSync(target, constants.W_OK);
    }
    accessSync(dirname(target), constants.W_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot write the run file "${path}": ${reasonOf(error)}.`, usage);
  }
}

/** Writes the logs that have events as one run file, whole or not at all (a file already there
 * is replaced only by a complete one). Returns how many runs it holds. The run redacted every key
 * from its events; the file is scanned for `secrets` once more, and not written if one is left. */
export function saveRunFile(path: string, logs: readonly RunEvent[][], secrets: readonly Secret[] = []): number {
  const runs = logs.flatMap((events) => (events[0] ? [{ id: events[0].runId, events }] : []));
  if (runs.length === 0) return 0;
  const text = writeRunFile(runs);
  const keys = new Redactor(secrets).keysIn(text);
  if (keys.length > 0) throw new UsageError(`The run file "${path}" was not written: ${keysLeftProblem(keys)}`);
  const partial = `${path}.partial-${process.pid}`;
  try {
    writeFileSync(partial, text);
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new UsageError(`Cannot write the run file "${path}": ${reasonOf(error)}.`);
  }
  return runs.length;
}

/** Reads a run file from disk; a file too large is refused before it is read. */
export function loadRunFile(path: string): ReadRunFileOutcome {
  let text: string;
  try {
    text = readRegularFile(path, { maxBytes: MAX_RUN_FILE_BYTES, tooLarge: (bytes) => runFileSizeProblem(bytes) ?? '' });
  } catch (error) {
    if (!(error instanceof FileRefused)) throw error;
    if (error.kind === 'too_large') return { ok: false, problems: [error.reason] };
    return { ok: false, problems: [`It cannot be read: ${error.kind === 'missing' ? 'no such file or folder' : error.reason}.`] };
  }
  return readRunFile(text, parseConfig);
}
