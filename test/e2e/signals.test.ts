// How CI stops a job: SIGTERM ends the built binary with exit 143, Ctrl-C (SIGINT) with 130, a
// closed terminal (SIGHUP) with 129, in the middle of `results list --follow` (which only ever
// ends by a signal).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, ensureBuilt } from './ensure-built.js';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sb: Sandbox;
beforeAll(async () => {
  await ensureBuilt();
  sb = await startSandbox({ port: 0, seed: 5, fixtures: 50, readLimit: 1_000_000 });
}, 120_000);
afterAll(() => sb?.close());

async function stopWith(signal: 'SIGTERM' | 'SIGINT' | 'SIGHUP'): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const key = sb.workspaces.find((w) => w.name === 'demo')!.apiKey;
  const child = spawn(process.execPath, [BIN, 'results', 'list', '--follow', '-o', 'ndjson'], {
    env: { PATH: process.env.PATH, HOME: '/nonexistent', SOCIALPUB_CONFIG_DIR: '/nonexistent-socialpub', SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: key },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  const before = sb.requests.length;
  // Following: the first poll has been answered (the child is between polls).
  await new Promise<void>((resolve) => {
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const check = setInterval(() => {
      if (sb.requests.length > before && stderr.includes('following new results')) {
        clearInterval(check);
        resolve();
      }
    }, 20);
  });
  child.kill(signal);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, stderr, stdout };
}

describe('signals', () => {
  it('SIGTERM exits 143', async () => {
    const r = await stopWith('SIGTERM');
    expect(r.code, r.stderr).toBe(143);
    expect(r.stdout).toBe('');
  }, 30_000);

  it('SIGINT exits 130', async () => {
    const r = await stopWith('SIGINT');
    expect(r.code, r.stderr).toBe(130);
  }, 30_000);

  it('SIGHUP (the terminal closed) exits 129, what was open closed as for SIGTERM', async () => {
    const r = await stopWith('SIGHUP');
    expect(r.code, r.stderr).toBe(129);
    expect(r.stdout).toBe('');
  }, 30_000);
});
