// node:sqlite prints an ExperimentalWarning when it loads on Node 22: none may reach the user.
// The built binary, `sandbox --data x.db --port 0 --json --quiet` (the banner off), on the Node
// running the tests (22 for the suite, 24 for the end-to-end run): after a write and a restart
// on the same database, stderr is empty. Without --quiet, only the banner: no warning line.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './ensure-built.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-quiet-'));
beforeAll(ensureBuilt, 120_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Runs the sandbox, creates a post, stops it with SIGTERM; returns its stderr. */
async function runOnce(extra: string[]): Promise<{ code: number | null; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: join(tmp, 'home'), SOCIALPUB_CONFIG_DIR: join(tmp, 'config'), NO_COLOR: '1' };
  const child = spawn(process.execPath, [BIN, 'sandbox', '--data', join(tmp, 'x.db'), '--port', '0', '--json', ...extra], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const ready = await new Promise<{ baseUrl: string; workspaces: { name: string; apiKey: string }[] }>((resolve, reject) => {
    void closed.then((code) => reject(new Error(`sandbox exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line)));
  });
  const key = ready.workspaces.find((w) => w.name === 'demo')!.apiKey;
  const res = await fetch(`${ready.baseUrl}/v1/posts`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ payloads: { bluesky: { text: 'quiet' } } }) });
  expect(res.status).toBe(201);
  child.kill('SIGTERM');
  return { code: await closed, stderr };
}

describe(`the sandbox on SQLite, Node ${process.versions.node}`, () => {
  it('prints nothing on stderr with --quiet: no ExperimentalWarning, on a new database and on a restart', async () => {
    const fresh = await runOnce(['--quiet']);
    expect(fresh.stderr).toBe('');
    const restarted = await runOnce(['--quiet']);
    expect(restarted.stderr).toBe('');
    expect(restarted.code).toBe(0);
  }, 60_000);

  it('without --quiet, stderr holds the banner and no warning', async () => {
    const { stderr } = await runOnce([]);
    expect(stderr).toMatch(/^socialpub sandbox listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(stderr).toMatch(/data {8}restored from and saved to .*x\.db/);
    expect(stderr).not.toMatch(/warning|\(node:\d+\)/i);
  }, 60_000);
});
