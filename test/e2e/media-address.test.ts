// The built binary, given --media with an address it cannot take (ftp://): the message names the
// flag and the fix instead of "no such file", exit 2, and the sandbox it points at receives nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { BIN, ensureBuilt } from './ensure-built.js';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sb: Sandbox;
const dir = mkdtempSync(join(tmpdir(), 'media-address-'));

beforeAll(async () => {
  await ensureBuilt();
  sb = await startSandbox({ port: 0, seed: 3, fixtures: 0 });
}, 120_000);
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('--media with an ftp:// address', () => {
  it('is refused by name with the fix, exit 2, nothing sent', async () => {
    const before = sb.requests.length;
    // Not spawnSync: the sandbox that would answer lives in this process's event loop.
    const child = spawn(process.execPath, [BIN, 'posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--media', 'ftp://host/a.png'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, SOCIALPUB_CONFIG_DIR: join(dir, 'config'), SOCIALPUB_BASE_URL: sb.url, SOCIALPUB_API_KEY: sb.key('demo'), NO_COLOR: '1' },
    });
    const r = { stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (c: string) => (r.stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (r.stderr += c));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(r.stderr).toContain('--media ftp://host/a.png: only https:// URLs or local files are taken');
    expect(r.stderr).toContain('download it first and give the local file, or give its https:// URL');
    expect(r.stderr).not.toMatch(/no such file/);
    expect(status).toBe(2);
    expect(r.stdout).toBe('');
    expect(sb.requests.length).toBe(before);
  });
});
