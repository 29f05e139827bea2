// A media file that exists but cannot be read is reported as such ("permission denied"), not as
// "no such file". Root reads everything, so as root the built binary runs as nobody (65534).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt } from './ensure-built.js';

const dir = mkdtempSync(join(tmpdir(), 'media-unreadable-'));
beforeAll(async () => {
  await ensureBuilt();
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'secret.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
  chmodSync(join(dir, 'secret.jpg'), 0o000);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an unreadable media file', () => {
  it('says permission denied, exit 2, and nothing is sent (--dry-run, no server)', () => {
    const asRoot = process.getuid?.() === 0;
    const r = spawnSync(process.execPath, [BIN, 'posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--media', join(dir, 'secret.jpg'), '--dry-run'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: dir, SOCIALPUB_CONFIG_DIR: join(dir, 'config'), SOCIALPUB_API_KEY: 'sk_test_unused', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', NO_COLOR: '1' },
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(r.stderr).toMatch(/secret\.jpg: cannot read the file: permission denied/);
    expect(r.stderr).not.toMatch(/no such file/);
    expect(r.status).toBe(2);
  });
});
