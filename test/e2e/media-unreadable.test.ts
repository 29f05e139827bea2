// A media file that exists but cannot be read is reported as such ("permission denied"), not as
// "no such file". Root reads everything, so as root the binary runs as nobody (65534). Nobody may
// not be able to reach the checkout (a clone inside a 0700 temporary folder, a home folder), so
// what it runs, bin/ and dist/, is copied into a world-readable temporary folder first.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from './ensure-built.js';

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const dir = mkdtempSync(join(tmpdir(), 'media-unreadable-'));
const bin = join(dir, 'app', 'bin', 'socialpub.js');

beforeAll(async () => {
  await ensureBuilt();
  chmodSync(dir, 0o755);
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(dir, 'app', part), { recursive: true });
  writeFileSync(join(dir, 'secret.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
  chmodSync(join(dir, 'secret.jpg'), 0o000);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an unreadable media file', () => {
  it('says permission denied, exit 2, and nothing is sent (--dry-run, no server)', () => {
    const r = spawnSync(process.execPath, [bin, 'posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--media', join(dir, 'secret.jpg'), '--dry-run'], {
      encoding: 'utf8',
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir, SOCIALPUB_CONFIG_DIR: join(dir, 'config'), SOCIALPUB_API_KEY: 'sk_test_unused', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', NO_COLOR: '1' },
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    expect(r.error).toBeUndefined();
    expect(r.stderr).toMatch(/secret\.jpg: cannot read the file: permission denied/);
    expect(r.stderr).not.toMatch(/no such file/);
    expect(r.status).toBe(2);
  });
});
