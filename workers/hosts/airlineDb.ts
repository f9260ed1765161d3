// τ²'s airline database in this browser: the user's copy of τ²-Bench's db.json (chosen on disk,
// or downloaded on request from τ²-Bench's public repository), checked as τ²'s FlightDB before it
// is kept, and kept in IndexedDB so the airline suite and the Task tab's airline domain work
// offline. Runs in the orchestrator worker: the page may not fetch other origins (its CSP), the
// worker may, and the worker parses it anyway to run the domain.

import type { DBSchema } from 'idb';
import { parseAirlineDb } from '../domains/tau2/airline/domain.ts';
import { AIRLINE_DB_LIMITS } from '../domains/tau2/airline/source.ts';
import { PyError } from '../domains/tau2/pyErrors.ts';
import type { UserFiles } from '../domains/browserTau2.ts';
import { formatCount } from '../engine/format.ts';
import { readTextUpTo } from '../engine/readTextUpTo.ts';
import { defineDatabase, stored } from '../storage/database.ts';

/** What this browser keeps of the airline database, as the page shows it. */
export interface AirlineDbInfo {
  /** A file the user chose (its name), or a download (its URL). */
  source: { kind: 'file' | 'download'; name: string };
  bytes: number;
  /** When it was kept (ISO). */
  savedAt: string;
}

/** The page's requests about it, and the worker's answer to each: what is kept now; for a probe,
 * the size the server announces (null when it says none). */
export type AirlineDbAction = { action: 'status' } | { action: 'keep'; name: string; text: string } | { action: 'probe'; url: string } | { action: 'download'; url: string } | { action: 'forget' };
export interface AirlineDbReply {
  kept: AirlineDbInfo | null;
  probe?: { url: string; bytes: number | null };
}

interface FilesSchema extends DBSchema {
  files: { key: string; value: AirlineDbInfo & { text: string } };
}

const KEY = 'airline/db.json';
const TIMEOUT_MS = 120_000;

const database = defineDatabase<FilesSchema>({
  name: 'orchestra-playground-tau2-files',
  holds: "τ²'s airline database",
  migrations: [(db) => void db.createObjectStore('files')],
});

async function read(): Promise<(AirlineDbInfo & { text: string }) | undefined> {
  return stored("read τ²'s airline database", async () => (await database.get()).get('files', KEY));
}

/** The kept database for loadBrowserDomain, or null. */
export async function airlineUserFiles(): Promise<UserFiles | null> {
  const kept = await read();
  return kept ? { texts: { 'db.json': kept.text }, names: { 'db.json': kept.source.name } } : null;
}

function info(kept: (AirlineDbInfo & { text: string }) | undefined): AirlineDbInfo | null {
  return kept ? { source: kept.source, bytes: kept.bytes, savedAt: kept.savedAt } : null;
}

/** Checks the text as τ²'s FlightDB (the error names the file and the field) and keeps it. */
async function keep(source: AirlineDbInfo['source'], text: string): Promise<AirlineDbReply> {
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes > AIRLINE_DB_LIMITS.bytes) throw new Error(`${source.name} is ${formatCount(bytes)} bytes; τ²'s airline database is about 7 MB, and at most ${formatCount(AIRLINE_DB_LIMITS.bytes)} are read.`);
  try {
    parseAirlineDb(text);
  } catch (error) {
    const text = error instanceof PyError ? error.text : (error as Error).message;
    throw new Error(`${source.name} is not τ²'s airline database: ${text}`, { cause: error });
  }
  const record = { source, bytes, savedAt: new Date().toISOString(), text };
  await stored("keep τ²'s airline database", async () => void (await (await database.get()).put('files', record, KEY)));
  return { kept: info(record) };
}

function checkedUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`"${url}" is not a web address.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`"${url}" is not an http(s) address.`);
  return parsed;
}

async function request(url: string, method: 'HEAD' | 'GET', fetchImpl: typeof fetch): Promise<Response> {
  const target = checkedUrl(url);
  let response: Response;
  try {
    response = await fetchImpl(target, { method, signal: AbortSignal.timeout(TIMEOUT_MS), credentials: 'omit' });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer in ${TIMEOUT_MS / 1000} s` : 'the network or the server refused it (offline, or the address is wrong)';
    throw new Error(`The airline database could not be fetched from ${target.host}: ${reason}.`, { cause: error });
  }
  if (!response.ok) throw new Error(`${target.host} answered ${response.status} ${response.statusText} for the airline database.`);
  return response;
}

/** Answers the page (`airline_db` in OrchestratorRequests). */
export async function airlineDbRequest(body: AirlineDbAction, fetchImpl: typeof fetch = (input, init) => fetch(input, init)): Promise<AirlineDbReply> {
  switch (body.action) {
    case 'status':
      return { kept: info(await read()) };
    case 'keep':
      return keep({ kind: 'file', name: body.name }, body.text);
    case 'forget':
      await stored("forget τ²'s airline database", async () => (await database.get()).delete('files', KEY));
      return { kept: null };
    case 'probe': {
      const response = await request(body.url, 'HEAD', fetchImpl);
      const length = Number(response.headers.get('content-length'));
      return { kept: info(await read()), probe: { url: body.url, bytes: Number.isFinite(length) && length > 0 ? length : null } };
    }
    case 'download': {
      const response = await request(body.url, 'GET', fetchImpl);
      const { text, truncated } = await readTextUpTo(response.body, AIRLINE_DB_LIMITS.bytes);
      if (truncated) throw new Error(`${body.url} sent more than ${formatCount(AIRLINE_DB_LIMITS.bytes)} bytes; τ²'s airline database is about 7 MB.`);
      return keep({ kind: 'download', name: body.url }, text);
    }
  }
}
