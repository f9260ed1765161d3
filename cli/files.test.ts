// Files a person hands the CLI are read as what they claim to be (cli/files.ts), against real
// files, real links and a real FIFO: a domain folder whose policy.md links to /proc/self/environ
// must not make the CLI's environment, with every API key in it, the system prompt; a db.json that
// is a FIFO must not hang the read.

import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from './scripted/scriptedServer.ts';
import { makeTempDir, ORCHESTRATOR_MODEL, runCli, writeConfig } from '../e2e/fixtures/cliHarness.ts';
import { FileRefused, readRegularFile } from './files.ts';
import { readDomainFiles } from './nodeDomains.ts';

const dir = makeTempDir();
const KEY = 'sk-environ-7d2f0a9c41b84e5f9a3c';

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

/** A small domain of one tool and one task, as someone would share it. */
function writeDomain(folder: string): void {
  mkdirSync(folder, { recursive: true });
  const tool = { name: 'mark_paid', description: 'Mark an invoice paid.', parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } };
  writeFileSync(join(folder, 'domain.json'), JSON.stringify({ name: 'shop', title: 'A corner shop', today: '2025-06-10', tools: [tool] }));
  writeFileSync(join(folder, 'policy.md'), 'Mark invoices paid when asked.');
  writeFileSync(join(folder, 'db.json'), JSON.stringify({ invoices: { 'INV-1': { paid: false } } }));
  writeFileSync(join(folder, 'tools.js'), 'function mark_paid(db, args) { db.invoices[args.id].paid = true; return "paid"; }\n');
  const task = { id: 'pay-1', task: 'Invoice INV-1 is paid.', domain: 'shop', check: { kind: 'db', actions: [{ name: 'mark_paid', arguments: { id: 'INV-1' } }] } };
  writeFileSync(join(folder, 'tasks.jsonl'), `${JSON.stringify(task)}\n`);
}

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof FileRefused) return error.reason;
    throw error;
  }
  throw new Error('the file was read');
}

describe('reading a file as what it claims to be', () => {
  const folder = join(dir, 'plain');
  beforeAll(() => {
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'a.txt'), 'inside');
    writeFileSync(join(dir, 'outside.txt'), 'outside');
    symlinkSync(join(folder, 'a.txt'), join(folder, 'inner-link.txt'));
    symlinkSync(join(dir, 'outside.txt'), join(folder, 'outer-link.txt'));
    symlinkSync('/proc/self/environ', join(folder, 'environ.txt'));
    symlinkSync(join(folder, 'missing.txt'), join(folder, 'dangling.txt'));
    mkfifo(join(folder, 'fifo.txt'));
  });

  it('reads a regular file, and a link that stays inside the folder', () => {
    expect(readRegularFile(join(folder, 'a.txt'), { maxBytes: 100, folder })).toBe('inside');
    expect(readRegularFile(join(folder, 'inner-link.txt'), { maxBytes: 100, folder })).toBe('inside');
  });

  it('refuses a link out of the folder, to a file or to /proc/self/environ, naming where it points', () => {
    expect(refusal(() => readRegularFile(join(folder, 'outer-link.txt'), { maxBytes: 100, folder }))).toBe(
      `it is a link to ${JSON.stringify(join(dir, 'outside.txt'))}, outside its folder; a link out of the folder is not followed, so nothing was read`,
    );
    expect(refusal(() => readRegularFile(join(folder, 'environ.txt'), { maxBytes: 1_000_000, folder }))).toContain('it is a link to "/proc/self/environ", outside its folder');
    expect(refusal(() => readRegularFile(join(folder, 'dangling.txt'), { maxBytes: 100, folder }))).toMatch(/^it is a link to ".*missing\.txt", which cannot be opened/);
  });

  it('refuses a FIFO at once (no reader waits on it), a device, a folder, and /proc named directly', () => {
    const started = performance.now();
    expect(refusal(() => readRegularFile(join(folder, 'fifo.txt'), { maxBytes: 100 }))).toBe('it is a FIFO (a named pipe), not a regular file; nothing was read');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(refusal(() => readRegularFile('/dev/zero', { maxBytes: 100 }))).toBe('it is a character device, not a regular file; nothing was read');
    expect(refusal(() => readRegularFile(join(folder, 'sub'), { maxBytes: 100 }))).toMatch(/a folder/);
    // /proc/self/environ is "regular" and 0 bytes long, then reads as the environment.
    expect(refusal(() => readRegularFile('/proc/self/environ', { maxBytes: 1_000_000 }))).toMatch(/^its size is 0 bytes, yet it reads as more: it is not a plain file/);
  });

  it('checks the size before reading', () => {
    expect(refusal(() => readRegularFile(join(folder, 'a.txt'), { maxBytes: 3 }))).toBe('it is 6 bytes; at most 3');
  });

  it('a domain folder names the file it refused', () => {
    const shop = join(dir, 'shop-fifo');
    writeDomain(shop);
    const db = join(shop, 'db.json');
    execFileSync('rm', [db]);
    mkfifo(db);
    expect(() => readDomainFiles(shop)).toThrow('db.json cannot be read: it is a FIFO (a named pipe), not a regular file; nothing was read');
  });
});

describe('orchestra eval --domain with a hostile folder', () => {
  let server: ScriptedServer;
  beforeAll(async () => {
    server = await startScriptedServer({ scenario: { models: { [ORCHESTRATOR_MODEL]: [{ repeat: true, content: 'done' }] } } });
  });
  afterAll(() => server.close());

  async function evalWith(shop: string) {
    server.reset();
    const { path } = writeConfig(dir, 'function-calling-scripted.json', server.url, (config) => {
      for (const provider of Object.values(config.providers)) provider.apiKeyEnv = 'SHOP_TEST_KEY';
    });
    const out = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
    return runCli(['eval', '--config', path, '--suite', join(shop, 'tasks.jsonl'), '--domain', shop, '--out', out, '--concurrency', '1'], {
      env: { SHOP_TEST_KEY: KEY },
    });
  }

  it('refuses a policy.md that links to /proc/self/environ: nothing is sent, the key goes nowhere', async () => {
    const shop = join(dir, 'shop-environ');
    writeDomain(shop);
    execFileSync('rm', [join(shop, 'policy.md')]);
    symlinkSync('/proc/self/environ', join(shop, 'policy.md'));
    const result = await evalWith(shop);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The domain in ${shop} cannot be used:`);
    expect(result.stderr).toContain('policy.md cannot be read: it is a link to "/proc/self/environ", outside its folder');
    expect(result.stderr).not.toContain(KEY);
    expect(server.requests).toEqual([]);
  }, 60_000);

  it('refuses a db.json that is a FIFO at once, instead of hanging on it', async () => {
    const shop = join(dir, 'shop-fifo-cli');
    writeDomain(shop);
    execFileSync('rm', [join(shop, 'db.json')]);
    mkfifo(join(shop, 'db.json'));
    const result = await evalWith(shop);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('db.json cannot be read: it is a FIFO (a named pipe), not a regular file; nothing was read');
    expect(server.requests).toEqual([]);
  }, 30_000);

  it('refuses a suite and a config that are FIFOs or /proc files, naming them', async () => {
    const fifo = join(dir, 'suite.fifo');
    mkfifo(fifo);
    const { path } = writeConfig(dir, 'function-calling-scripted.json', server.url);
    const suite = await runCli(['eval', '--config', path, '--suite', fifo, '--out', join(dir, 'x.jsonl')]);
    expect(suite.code).toBe(2);
    expect(suite.stderr).toContain(`Cannot read the suite "${fifo}": it is a FIFO (a named pipe), not a regular file; nothing was read.`);
    const config = await runCli(['run', '--config', '/proc/self/environ', '--task', 'x']);
    expect(config.code).toBe(2);
    expect(config.stderr).toContain('Cannot read the configuration file "/proc/self/environ": its size is 0 bytes, yet it reads as more');
    const replay = await runCli(['replay', fifo]);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toContain('It cannot be read: it is a FIFO (a named pipe), not a regular file; nothing was read.');
  }, 60_000);
});
