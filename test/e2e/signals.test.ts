// A signal stops a waiting command the way a shell reports it: exit 130 after Ctrl-C (SIGINT),
// 143 after SIGTERM (a CI runner cancelling a job), and nothing but a note on stderr.
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './ensure-built.js';

beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

/** Starts `listen` (which waits until stopped), sends the signal once it listens, and returns how it ended. */
async function stopListen(signal: 'SIGINT' | 'SIGTERM') {
  const child = spawn(process.execPath, [BIN, 'listen', '--port', '0'], {
    env: { PATH: process.env.PATH, HOME: '/nonexistent', SOCIALPUB_CONFIG_DIR: '/nonexistent-socialpub', CI: 'true', SOCIALPUB_WEBHOOK_SECRET: 'whsec_c2lnbmFscy10ZXN0LXNlY3JldC0wMTIzNDU2Nzg5YWI=' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (r.stdout += c.toString()));
  let sent = false;
  child.stderr.on('data', (c: Buffer) => {
    r.stderr += c.toString();
    if (!sent && /listening/i.test(r.stderr)) {
      sent = true;
      child.kill(signal);
    }
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { ...r, status, sent };
}

describe('signals', () => {
  it('SIGTERM exits 143, SIGINT 130', async () => {
    const term = await stopListen('SIGTERM');
    expect(term.sent, term.stderr).toBe(true);
    expect(term.status, term.stderr).toBe(143);
    const int = await stopListen('SIGINT');
    expect(int.sent, int.stderr).toBe(true);
    expect(int.status, int.stderr).toBe(130);
  }, 30_000);
});
