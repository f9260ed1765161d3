// Node-only: how the CLI reads a file a person hands it (a config, a suite, a run file, a results
// file, a domain's folder). A file is read as what it claims to be: a regular file, opened without
// blocking (a FIFO or a device is refused before anything is read, never waited on), its size
// checked before it is read, and read back to exactly that size (a /proc or /sys file claims 0
// bytes and then reads as more: refused). A file read from a folder (a domain's) is opened without
// following a link out of that folder: `policy.md` linked to /proc/self/environ would make the
// process's environment, every API key in it, the system prompt. A file named on the command line
// may be a link (the person named it), to a regular file.

import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { formatCount } from '../workers/engine/format.ts';
import { UsageError } from './usage.ts';

/** Why a file was not read, in words that follow its name ("policy.md is a FIFO …"). */
export class FileRefused extends Error {
  override name = 'FileRefused';
  constructor(
    readonly path: string,
    readonly reason: string,
    /** Nothing is there at all, or the file is over the size it may have. */
    readonly kind: 'missing' | 'too_large' | 'refused' = 'refused',
  ) {
    super(`${path}: ${reason}`);
  }
}

export interface ReadFileOptions {
  /** At most this many bytes. */
  maxBytes: number;
  /** The folder the file is read from: a link in it may point only inside it. */
  folder?: string;
  /** The words for a file over `maxBytes` (default: its size and the cap). */
  tooLarge?: (bytes: number) => string;
}

// Windows has neither flag; there a link is refused by the check before the open.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO (a named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isSymbolicLink()) return 'a link';
  return 'not a regular file';
}

function errnoReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'it does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'ELOOP') return 'it is a link, which is not followed here';
  return (error as Error).message;
}

const inside = (path: string, folder: string): boolean => {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/** The path to open: the file itself, or where its link points when that may be followed. */
function target(path: string, folder: string | undefined): string {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch (error) {
    throw new FileRefused(path, errnoReason(error), (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'refused');
  }
  if (!stats.isSymbolicLink()) return path;
  let points: string;
  try {
    points = realpathSync(path);
  } catch (error) {
    throw new FileRefused(path, `it is a link to ${JSON.stringify(safeReadlink(path))}, which cannot be opened (${errnoReason(error)})`);
  }
  if (folder !== undefined && !inside(points, realpathSync(folder))) {
    throw new FileRefused(path, `it is a link to ${JSON.stringify(safeReadlink(path))}, outside its folder; a link out of the folder is not followed, so nothing was read`);
  }
  return points;
}

function safeReadlink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '?';
  }
}

/** Reads a regular file's text (UTF-8), or throws FileRefused saying why it was not read. */
export function readRegularFile(path: string, options: ReadFileOptions): string {
  const opened = target(path, options.folder);
  let fd: number;
  try {
    fd = openSync(opened, OPEN_FLAGS);
  } catch (error) {
    throw new FileRefused(path, errnoReason(error));
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new FileRefused(path, `it is ${kindOf(stats)}, not a regular file; nothing was read`);
    if (stats.size > options.maxBytes) {
      throw new FileRefused(path, options.tooLarge?.(stats.size) ?? `it is ${formatCount(stats.size)} bytes; at most ${formatCount(options.maxBytes)}`, 'too_large');
    }
    // One byte more than it claims: a file that reads past its size is no regular file.
    const buffer = Buffer.alloc(stats.size + 1);
    let read = 0;
    for (let got = -1; got !== 0 && read < buffer.length; read += got) got = readSync(fd, buffer, read, buffer.length - read, null);
    if (read !== stats.size) {
      throw new FileRefused(path, `its size is ${formatCount(stats.size)} bytes, yet it reads as ${read > stats.size ? 'more' : formatCount(read)}: it is not a plain file (such as one of /proc's) or it changed while it was read; nothing was used`);
    }
    return buffer.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
}

/** Whether a path exists, a link counted as existing (never followed). */
export function pathExists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A file named on the command line, read (readRegularFile); a refusal is a UsageError that names
 * the file and what it was for: `Cannot read the suite "x.jsonl": it is a FIFO …`. */
export function readNamedFile(path: string, what: string, options: ReadFileOptions): string {
  try {
    return readRegularFile(path, options);
  } catch (error) {
    if (error instanceof FileRefused) throw new UsageError(`Cannot read ${what} "${path}": ${error.kind === 'missing' ? 'no such file' : error.reason}.`);
    throw error;
  }
}

/** The largest results or outputs file the CLI reads back (`--out`, `eval merge`'s parts): a
 * string past about 512 MB cannot be made at all. */
export const MAX_RESULTS_FILE_BYTES = 256 * 1024 * 1024;

/** Whether two paths name the same file: the same path, or (both there) the same file on disk,
 * reached through a link or a hard link. */
export function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
