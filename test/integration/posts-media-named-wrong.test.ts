// A PNG named .jpg (a screenshot renamed, an export misnamed) was refused outright. It is judged
// by its content: taken where the platform takes PNG, with a note; refused where it does not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../src/wire/schemas.js';
import { runCli } from '../helpers/run-cli.js';
import { png, writeFixture } from '../helpers/media-fixtures.js';
import { cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'posts-named-wrong-'));
const photo = join(dir, 'photo.jpg');
beforeAll(async () => {
  sb = await manualSandbox();
  writeFixture(photo, png(1200, 800));
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});
const cli = (argv: string[]) => runCli(argv, { clock: sandboxClock(sb.clock), env: cliEnv(sb) });

describe('a PNG named .jpg', () => {
  it('is uploaded as the PNG it is where the platform takes PNG, with a note naming both', async () => {
    const r = await cli(['posts', 'create', '--platform', 'bluesky', '--text', 'a screenshot', '--media', photo, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`--media ${photo} is image/png (its name says image/jpeg): judged and sent as image/png`);
    expect((JSON.parse(r.stdout) as Post).payloads.bluesky).toMatchObject({ media: [expect.objectContaining({ url: expect.any(String) })] });
  });

  it('is refused, as a PNG, by a platform that takes JPEG only (Instagram images)', async () => {
    const r = await cli(['posts', 'create', '--platform', 'instagram', '--text', 'a screenshot', '--media', photo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('instagram does not take image/png');
  });

  it('posts check passes it for Bluesky with a warning row', async () => {
    const r = await cli(['posts', 'check', '--platform', 'bluesky', '--text', 'x', '--media', photo, '--json']);
    expect(r.code).toBe(0);
    const checks = (JSON.parse(r.stdout) as { targets: Array<{ checks: Array<{ rule: string; verdict: string; message?: string }> }> }).targets[0]!.checks;
    expect(checks.find((c) => c.rule === 'media.name')).toMatchObject({ verdict: 'warn', message: expect.stringContaining('judged and sent as image/png') });
  });
});
