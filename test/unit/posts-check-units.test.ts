// Limits in the platform's own unit: Bluesky's 1,000,000-byte image limit was shown as "≤ 977 KB",
// which matches nothing Bluesky says; X's 5 MB (binary) stays in MB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { jpeg, writeFixture } from '../helpers/media-fixtures.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'socialpub-units-'));
  writeFixture(join(dir, 'big.jpg'), jpeg(1200, 800, { size: 1_200_000 }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Check = { rule: string; verdict: string; actual: string; limit: string; message?: string };
const sizeCheck = async (platform: string) => {
  const r = await runCli(['posts', 'check', '--platform', platform, '--text', 'hi', '--media', join(dir, 'big.jpg'), '--json']);
  const report = JSON.parse(r.stdout) as { targets: Array<{ checks: Check[] }> };
  return report.targets[0]!.checks.find((c) => c.rule === 'media.size')!;
};

describe('media size limits in the platform\'s unit', () => {
  it('Bluesky: bytes, as Bluesky counts them', async () => {
    const c = await sizeCheck('bluesky');
    expect(c).toMatchObject({ verdict: 'fail', actual: '1,200,000 bytes', limit: '≤ 1,000,000 bytes' });
    expect(c.message).toBe("1,200,000 bytes is over Bluesky's limit of 1,000,000 bytes");
  });

  it('a limit in binary units stays in KB/MB', async () => {
    const c = await sizeCheck('twitter-x');
    expect(c.limit).toMatch(/^≤ \d+ MB$/);
    expect(c.actual).toBe('1.1 MB');
  });
});
