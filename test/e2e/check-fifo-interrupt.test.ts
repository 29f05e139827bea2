// Ctrl-C while `posts check` waits for a FIFO's writer: the first SIGINT ends the run with exit
// 130, nothing on stdout. A blocking open of the FIFO held a thread-pool thread that no signal
// takes back, so the first Ctrl-C was lost. The built binary in a process of its own and a real
// signal; the test waits until the process holds the FIFO open (seen in /proc), not for a time.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './ensure-built.js';

const dir = mkdtempSync(join(tmpdir(), 'check-fifo-int-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// A run that ignored the signal must not outlive its test (a timed-out test never gets to its own cleanup).
let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

/** Why the test cannot run here, or undefined. */
function unavailable(): string | undefined {
  if (!existsSync('/proc/self/fd')) return 'no /proc to see when the process holds the FIFO open (Linux only)';
  try {
    execFileSync('mkfifo', [join(dir, 'probe')]);
  } catch {
    return 'mkfifo is not available';
  }
  return undefined;
}
const skipped = unavailable();
if (skipped) console.warn(`posts check on a FIFO, interrupted: skipped: ${skipped}`);

beforeAll(async () => {
  if (!skipped) await ensureBuilt();
}, 120_000);

/** The entries of a /proc folder, or none (the process is gone, or the entry went meanwhile). */
function entries(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function read(path: string, how: (p: string) => string): string | undefined {
  try {
    return how(path);
  } catch {
    return undefined;
  }
}

/**
 * Resolves once process `pid` has reached the FIFO: holds `path` open (a link in /proc/PID/fd), or
 * one of its threads waits in the kernel for a writer to come (a blocking open). Polled, never
 * slept on.
 */
function reachedFifo(pid: number, path: string, exited: Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    const look = () =>
      entries(`/proc/${pid}/fd`).some((fd) => read(`/proc/${pid}/fd/${fd}`, readlinkSync) === path) ||
      entries(`/proc/${pid}/task`).some((task) => read(`/proc/${pid}/task/${task}/wchan`, (p) => readFileSync(p, 'utf8')) === 'wait_for_partner');
    const timer = setInterval(() => {
      if (!look()) return;
      clearInterval(timer);
      resolve();
    }, 10);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error('the process ended before it opened the FIFO'));
    });
  });
}

describe.skipIf(skipped !== undefined)('posts check on a FIFO with no writer yet', () => {
  it.each([['--file'], ['--from-file']])('the first Ctrl-C ends %s with exit 130 and nothing on stdout', async (flag) => {
    const fifo = join(dir, `post${flag}.json`);
    execFileSync('mkfifo', [fifo]);
    const run = spawn(process.execPath, [BIN, 'posts', 'check', flag, fifo, '--json'], {
      env: { PATH: process.env.PATH, HOME: dir, SOCIALPUB_CONFIG_DIR: join(dir, 'config'), TZ: 'UTC', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child = run;
    run.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    run.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => run.on('close', (code, signal) => resolve({ code, signal })));
    await reachedFifo(run.pid!, fifo, closed);
    run.kill('SIGINT');
    expect(await closed, stderr).toEqual({ code: 130, signal: null });
    expect(stderr).toMatch(/^interrupted\n/);
    expect(stdout).toBe('');
  }, 30_000);
});
