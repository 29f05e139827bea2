// The sandbox's demo key file against real signals, with the built binary as a child process and a
// temporary folder of its own (TMPDIR): gone after SIGHUP (the terminal closed) as after SIGTERM;
// left by kill -9, which nothing can catch, and then removed by the next sandbox, which says so.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './ensure-built.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-keyfile-'));
const children: ChildProcess[] = [];
beforeAll(ensureBuilt, 120_000);
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Running {
  child: ChildProcess;
  stderr: () => string;
  /** The key file the banner's login line names, and the sandbox's URL. */
  keyFile: string;
  url: string;
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `socialpub sandbox` and waits for its login line. */
async function startSandbox(): Promise<Running> {
  const env = { PATH: process.env.PATH ?? '', HOME: join(tmp, 'home'), SOCIALPUB_CONFIG_DIR: join(tmp, 'config'), TMPDIR: tmp, NO_COLOR: '1' };
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const line = await new Promise<RegExpExecArray>((resolve, reject) => {
    void closed.then(({ code }) => reject(new Error(`sandbox exited ${code}: ${stderr}`)));
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
      const m = /--base-url (http:\/\/127\.0\.0\.1:\d+) < (\S+demo\.key)\n/.exec(stderr);
      if (m) resolve(m);
    });
  });
  return { child, stderr: () => stderr, url: line[1]!, keyFile: line[2]!, closed };
}

const answers = async (url: string) => (await fetch(`${url}/openapi.json`).catch(() => undefined))?.status === 200;

describe('the sandbox key file', () => {
  it('is removed on SIGHUP, as on SIGTERM, and the sandbox stops', async () => {
    for (const signal of ['SIGHUP', 'SIGTERM'] as const) {
      const sb = await startSandbox();
      expect(existsSync(sb.keyFile)).toBe(true);
      expect(dirname(sb.keyFile).startsWith(tmp)).toBe(true);
      sb.child.kill(signal);
      const end = await sb.closed;
      expect(end, `${signal}: ${sb.stderr()}`).toEqual({ code: 0, signal: null });
      expect(sb.stderr()).toContain('sandbox stopped');
      expect(existsSync(dirname(sb.keyFile)), signal).toBe(false);
      expect(await answers(sb.url)).toBe(false);
    }
  }, 60_000);

  it('left by kill -9, is removed by the next sandbox, which says so; a running sandbox\'s file stays', async () => {
    const killed = await startSandbox();
    killed.child.kill('SIGKILL');
    expect((await killed.closed).signal).toBe('SIGKILL');
    expect(existsSync(killed.keyFile)).toBe(true);

    const next = await startSandbox();
    expect(next.stderr()).toContain(`removed ${killed.keyFile}: the key file of a sandbox that is no longer running (pid ${killed.child.pid}`);
    expect(existsSync(dirname(killed.keyFile))).toBe(false);
    // A third start leaves the second's file alone: its sandbox still runs.
    const third = await startSandbox();
    expect(third.stderr()).not.toContain('removed');
    expect(existsSync(next.keyFile)).toBe(true);
    for (const sb of [next, third]) {
      sb.child.kill('SIGTERM');
      expect((await sb.closed).code).toBe(0);
    }
    expect(readdirSync(tmp).filter((n) => n.startsWith('socialpub-sandbox-'))).toEqual([]);
  }, 60_000);
});
