// A bulk file's media stay in its folder: relative paths start there, and one that leaves it
// (through "..", a symbolic link, or an absolute path) is refused, naming the row and the fix,
// unless --allow-media-outside. URLs are not paths and are never refused.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBulk } from '../../src/posts/bulk/rows.js';
import { runCli } from '../helpers/run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'bulk-media-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const folder = join(root, 'campaign');
mkdirSync(join(folder, 'img'), { recursive: true });
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f40000000049454e44ae426082', 'hex');
for (const f of [join(folder, 'img', 'ok.png'), join(root, 'secret.png')]) writeFileSync(f, PNG);
if (process.platform !== 'win32') symlinkSync(join(root, 'secret.png'), join(folder, 'img', 'link.png'));

const NOW = Date.parse('2026-06-01T12:00:00Z');
const csv = (media: string) => `at,platforms,text,media\n2026-12-01 09:00,bluesky,hello,${media}\n`;
const issuesOf = (media: string, allowMediaOutside = false) =>
  parseBulk(csv(media), { label: 'plan.csv', baseDir: folder, zone: 'UTC', now: NOW, allowMediaOutside }).rows[0]!.issues.map((i) => i.message);

describe("bulk media stay in the file's folder", () => {
  it('accepts paths inside it, and URLs', () => {
    expect(issuesOf('img/ok.png')).toEqual([]);
    expect(issuesOf('./img/../img/ok.png')).toEqual([]);
    expect(issuesOf('https://cdn.example/a.png')).toEqual([]);
  });

  it('refuses "..", absolute paths and links that lead out', () => {
    const refused = (media: string, how: string) => [
      `line 2: media ${media}: "${media}" ${how}; media of plan.csv must be inside ${folder}`,
    ];
    expect(issuesOf('../secret.png')).toEqual(refused('../secret.png', 'leads outside the folder of the bulk file'));
    expect(issuesOf('img/../../secret.png')).toEqual(refused('img/../../secret.png', 'leads outside the folder of the bulk file'));
    expect(issuesOf(join(folder, 'img', 'ok.png'))).toEqual(refused(join(folder, 'img', 'ok.png'), 'is an absolute path'));
    if (process.platform !== 'win32') expect(issuesOf('img/link.png')).toEqual(refused('img/link.png', 'leads outside the folder of the bulk file'));
    // The same paths in an NDJSON body.
    const ndjson = `{"payloads":{"bluesky":{"text":"hi","media":[{"url":"../secret.png"}]}},"scheduledAt":"2026-12-01T09:00:00Z"}\n`;
    const row = parseBulk(ndjson, { label: 'plan.ndjson', baseDir: folder, zone: 'UTC', now: NOW }).rows[0]!;
    expect(row.issues.map((i) => i.field)).toEqual(['line 1: payloads.bluesky.media[0].url']);
  });

  it('lets them through with --allow-media-outside', () => {
    expect(issuesOf('../secret.png', true)).toEqual([]);
    expect(issuesOf(join(root, 'secret.png'), true)).toEqual([]);
  });

  it('the command refuses such a file before sending anything, and names the flag', async () => {
    writeFileSync(join(folder, 'plan.csv'), csv('../secret.png'));
    const refused = await runCli(['posts', 'schedule', '--from-file', join(folder, 'plan.csv'), '--dry-run'], { env: { SOCIALPUB_API_KEY: 'sk_test_00000000000000', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('"../secret.png" leads outside the folder of the bulk file');
    expect(refused.stderr).toContain('--allow-media-outside');
    const allowed = await runCli(['posts', 'schedule', '--from-file', join(folder, 'plan.csv'), '--dry-run', '--allow-media-outside'], { env: { SOCIALPUB_API_KEY: 'sk_test_00000000000000', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' } });
    expect(allowed.stderr).not.toContain('leads outside');
    expect(allowed.code).toBe(0);
    const single = await runCli(['posts', 'schedule', '--platform', 'bluesky', '--text', 'hi', '--at', '+1h', '--allow-media-outside', '--dry-run']);
    expect(single.code).toBe(2);
    expect(single.stderr).toContain('--allow-media-outside only applies with --from-file');
  });
});

describe('a row whose media leave the folder is never read', () => {
  it('keeps no draft of the row, so no file of it is opened (a missing one is not even said to be missing)', () => {
    const row = parseBulk(csv('img/ok.png|../nothing-here.png'), { label: 'plan.csv', baseDir: folder, zone: 'UTC', now: NOW }).rows[0]!;
    expect(row.draft).toBeUndefined();
    expect(row.issues.map((i) => i.field)).toEqual(['line 2: media ../nothing-here.png']);
  });

  it('posts check lists the folder problem alone, and judges the row with --allow-media-outside as schedule would', async () => {
    writeFileSync(join(folder, 'check.csv'), csv('img/ok.png|../secret.png'));
    const refused = await runCli(['posts', 'check', '--from-file', join(folder, 'check.csv'), '--json']);
    expect(refused.code).toBe(2);
    const report = JSON.parse(refused.stdout) as { problems: Array<{ message: string }>; targets: unknown[] };
    expect(report.problems.map((p) => p.message)).toEqual([`line 2: media ../secret.png: "../secret.png" leads outside the folder of the bulk file; media of ${join(folder, 'check.csv')} must be inside ${folder}`]);
    expect(report.targets).toEqual([]);
    const allowed = await runCli(['posts', 'check', '--from-file', join(folder, 'check.csv'), '--allow-media-outside', '--json']);
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({ accepted: true, problems: [], targets: [{ line: 2, platform: 'bluesky', accepted: true }] });
    const single = await runCli(['posts', 'check', '--platform', 'bluesky', '--text', 'hi', '--allow-media-outside']);
    expect(single.code).toBe(2);
    expect(single.stderr).toContain('--allow-media-outside only applies with --from-file');
  });
});
