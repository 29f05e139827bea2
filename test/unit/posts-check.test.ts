// `posts check` through the in-process CLI with no profile and no key, the same rules refusing
// `posts create` before any request, and the MCP tool check_post.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { gif, jpeg, png, video, webp, writeFixture } from '../helpers/media-fixtures.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import type { ToolContext } from '../../src/mcp/types.js';
import { checkSummary } from '../../src/posts/check.js';
import { displayWidth } from '../../src/output/width.js';
import type { RuleCheck } from '../../src/wire/post-rules.js';

let dir: string;
const f = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'socialpub-check-'));
  writeFixture(f('long.mp4'), video({ durationSec: 200, width: 1920, height: 1080, moovAtEnd: true }));
  writeFixture(f('short.mov'), video({ durationSec: 20, width: 1920, height: 1080, mov: true, rotated: true }));
  writeFixture(f('photo.jpg'), jpeg(1080, 1350, { app1Bytes: 2000 }));
  writeFixture(f('wide.jpg'), jpeg(2400, 1000));
  writeFixture(f('square.png'), png(1080, 1080));
  writeFixture(f('card.webp'), webp(1200, 628));
  writeFixture(f('loop.gif'), gif(480, 270, 400));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Report = {
  accepted: boolean;
  problems: Array<{ field: string; message: string }>;
  targets: Array<{ platform: string; accepted: boolean; line?: number; checks: Array<{ rule: string; verdict: string; item?: string; actual: string; limit: string; message?: string; fix?: string }> }>;
};
const json = (stdout: string) => JSON.parse(stdout) as Report;
const rule = (r: Report, platform: string, name: string) => r.targets.find((t) => t.platform === platform)!.checks.filter((c) => c.rule === name);

describe('socialpub posts check', () => {
  it('judges each platform, with no profile and no key, and exits 2 when a target would be refused', async () => {
    const r = await runCli(['posts', 'check', '--platform', 'twitter-x,instagram', '--text', 'Launch #day', '--media', f('long.mp4'), '--media', f('photo.jpg'), '--json'], { env: { SOCIALPUB_API_KEY: undefined } });
    expect(r.code).toBe(2);
    const report = json(r.stdout);
    expect(report.accepted).toBe(false);
    expect(report.targets.map((t) => [t.platform, t.accepted])).toEqual([
      ['twitter-x', false],
      ['instagram', true],
    ]);
    expect(rule(report, 'twitter-x', 'media.mix')[0]).toMatchObject({ verdict: 'fail', fix: 'remove the video or post it separately' });
    expect(rule(report, 'twitter-x', 'video.duration')[0]).toMatchObject({ verdict: 'fail', actual: expect.stringContaining('200 s'), limit: '0.5 s–140 s' });
    expect(rule(report, 'twitter-x', 'text.length')[0]).toMatchObject({ verdict: 'pass', actual: '11', limit: '≤ 280' });
    expect(rule(report, 'instagram', 'image.aspect')[0]).toMatchObject({ verdict: 'pass', actual: '1080×1350 (0.80:1)' });
    expect(r.stderr).not.toMatch(/key|profile/i);
  });

  it('exits 0 when every target would be accepted, and reads rotated MOV, WebP and GIF headers', async () => {
    const r = await runCli(['posts', 'check', '--platform', 'tiktok', '--text', 'Hi', '--media', f('short.mov'), '--json']);
    expect(r.code).toBe(0);
    expect(rule(json(r.stdout), 'tiktok', 'video.dimensions')[0]).toMatchObject({ verdict: 'pass', actual: '1080×1920' });
    const bsky = await runCli(['posts', 'check', '--platform', 'bluesky', '--text', 'Hi', '--media', f('card.webp'), '--json']);
    expect(bsky.code).toBe(0);
    const x = json((await runCli(['posts', 'check', '--platform', 'twitter-x', '--text', 'Hi', '--media', f('loop.gif'), '--json'])).stdout);
    // 400 frames: counted to one past the limit, and said as more than 350.
    expect(rule(x, 'twitter-x', 'gif.frames')[0]).toMatchObject({ verdict: 'fail', actual: '350+', limit: '≤ 350' });
  });

  it('prints a table on a terminal that fits its width, with each failure and its fix under it', async () => {
    const r = await runCli(['posts', 'check', '--platform', 'youtube', '--text', 'Watch', '--media', f('long.mp4')], { tty: true, columns: 80 });
    expect(r.code).toBe(2);
    const lines = r.stdout.replace(/\x1b\[[0-9;]*m/g, '').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(3);
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/TARGET\s+RULE\s+VERDICT/);
    expect(r.stderr).toContain('YouTube needs a title');
    // Prose on stderr wraps between words at the terminal's width.
    expect(r.stderr.replace(/\s+/g, ' ')).toContain('fix: give the post a title (at most 100 characters)');
  });

  it('at 60 columns folds VERDICT and LIMIT into RULE and ACTUAL rather than cutting "≤ 280" to "≤ 2…": a failing row keeps its limit', async () => {
    const big = writeFixture(f('big.jpg'), jpeg(4000, 3000, { size: 9_000_000 }));
    const args = ['posts', 'check', '--platform', 'twitter-x,youtube', '--text', 'Hello', '--media', big, '--media', f('long.mp4')];
    const narrow = await runCli(args, { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(narrow.code).toBe(2);
    const lines = narrow.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(lines[0]).toMatch(/^TARGET\s+RULE\s+ITEM\s+ACTUAL$/);
    // The failing row says the limit it broke beside the value, whole; a passing row only its value.
    expect(lines.find((l) => l.includes('media.size ✗'))).toMatch(/twitter-x\s+media\.size ✗\s+big\.jpg\s+8\.6 MB \(≤ 5 MB\)$/);
    expect(lines.find((l) => l.includes('youtube') && l.includes('media.count'))).toMatch(/media\.count ✗\s+2 \(≤ 1\)$/);
    expect(lines.find((l) => l.includes('text.length'))).toMatch(/text\.length ✓\s+5$/);
    expect(narrow.stdout).not.toMatch(/≤ \d*…/);
    // The limit is still told, in the failure's own line under the table.
    expect(narrow.stderr.replace(/\s+/g, ' ')).toContain("8.6 MB is over X's limit of 5 MB");
    // Wider, each has its own column again, and the marks are not repeated.
    const wide = await runCli(args, { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    expect(wide.stdout.split('\n')[0]).toMatch(/VERDICT\s+ITEM\s+ACTUAL\s+LIMIT$/);
    expect(wide.stdout).toMatch(/text\.length\s+✓\s+5\s+≤ 280\n/);
    expect(wide.stdout).toMatch(/twitter-x\s+media\.size\s+✗\s+big\.jpg\s+8\.6 MB\s+≤ 5 MB\n/);
    // TSV is not a table: its columns do not change with the terminal.
    const tsv = await runCli([...args, '-o', 'tsv'], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(tsv.stdout.split('\n').find((l) => l.includes('\tmedia.size\t'))!.split('\t')).toEqual(['twitter-x', 'media.size', 'fail', `--media ${big}`, '8.6 MB', '≤ 5 MB', expect.stringContaining('compress')]);
  });

  it('offers a thread for a text too long on a platform that publishes threads, as posts create does', async () => {
    const fixOf = async (platform: string, text: string, extra: string[] = []) => {
      const r = await runCli(['posts', 'check', '--platform', platform, '--text', text, ...extra, '--json']);
      return rule(json(r.stdout), platform, 'text.length')[0]!.fix;
    };
    expect(await fixOf('twitter-x', 'x '.repeat(200))).toBe('shorten it by 120 characters, or split it into a thread with --thread');
    // LinkedIn takes no thread; a part of a thread already split is judged as it is.
    expect(await fixOf('linkedin', 'x'.repeat(3001))).toBe('shorten it by 1 character');
  });

  it('at 60 columns folds LIMIT too when folding VERDICT into a wider RULE leaves no room for it', async () => {
    // instagram's "media.required ✓" makes RULE wide once the verdict joins it: LIMIT then gives way.
    const photo = writeFixture(f('square.jpg'), jpeg(1080, 1080));
    const r = await runCli(['posts', 'check', '--platform', 'twitter-x,instagram', '--text', 'x'.repeat(300), '--media', photo], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(2);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(60);
    expect(lines[0]).not.toContain('LIMIT');
    expect(lines.find((l) => l.includes('twitter-x') && l.includes('text.length'))).toMatch(/text\.length ✗\s+300 \(≤ 280\)$/);
  });

  it('shows a file name with control characters made visible in the table, not cut at the backslash of an escape', async () => {
    const name = writeFixture(f('e\x1b[2Jx.png'), png(1080, 1080));
    const r = await runCli(['posts', 'check', '--platform', 'bluesky', '--text', 'Hi', '--media', name], { tty: true, columns: 120, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\x1b[2J');
    const cells = r.stdout.split('\n').find((l) => l.includes('media.type'))!.split(/\s{2,}/);
    expect(cells).toContain('e\\u001b[2Jx.png');
    // Failures are told one line each under the table, a line break in a name shown as \n.
    const broken = writeFixture(f('a\nb.png'), png(1080, 1080));
    const refused = await runCli(['posts', 'check', '--platform', 'instagram', '--text', 'Hi', '--media', broken], { tty: true, columns: 200, env: { NO_COLOR: '1' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[0]).toBe('instagram a\\nb.png: Instagram does not take image/png (fix: Instagram takes image/jpeg, video/mp4, video/quicktime)');
  });

  it('shows bidirectional controls in a file name, so "invoice<RLO>gnp.exe" cannot pass for invoiceexe.png; JSON keeps the name', async () => {
    const name = writeFixture(f('invoice\u202egnp.exe'), png(1080, 1080));
    const table = await runCli(['posts', 'check', '--platform', 'bluesky', '--text', 'Hi', '--media', name], { tty: true, columns: 120, env: { NO_COLOR: '1' } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).not.toContain('\u202e');
    expect(table.stdout.split('\n').find((l) => l.includes('media.type'))!.split(/\s{2,}/)).toContain('invoice\\u202egnp.exe');
    const json = await runCli(['posts', 'check', '--platform', 'bluesky', '--text', 'Hi', '--media', name, '--json']);
    expect(json.stdout).not.toContain('\u202e');
    expect(json.stdout).toContain('invoice\\u202egnp.exe');
    expect(json.stdout).toContain('"item": "--media');
    expect(JSON.parse(json.stdout).targets[0].checks.find((c: { rule: string }) => c.rule === 'media.type').item).toBe(`--media ${name}`);
    // Refused posts create names the file the same way on stderr, every isolate and override shown.
    const other = writeFixture(f('a\u2066b\u200fc\u202ad.txt'), Buffer.from('not media'));
    const refused = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'Hi', '--media', other], { env: { SOCIALPUB_API_KEY: 'sk_test_unused_key_000000000000' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).not.toMatch(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(refused.stderr).toContain('a\\u2066b\\u200fc\\u202ad.txt');
  });

  it("judges a phone photo stored sideways with an EXIF orientation as shown: upright 3:4 is outside Instagram's 4:5 to 1.91:1", async () => {
    const upright = writeFixture(f('upright.jpg'), jpeg(4032, 3024, { orientation: 6 }));
    const r = await runCli(['posts', 'check', '--platform', 'instagram', '--text', 'Hi', '--media', upright, '--json']);
    expect(r.code).toBe(2);
    expect(rule(json(r.stdout), 'instagram', 'image.aspect')[0]).toMatchObject({ verdict: 'fail', actual: '3024×4032 (0.75:1)' });
  });

  it('warns of a file whose headers cannot be read (an MP4 cut before its moov), leaving its rules to the platform', async () => {
    const whole = video({ durationSec: 10, width: 1280, height: 720, moovAtEnd: true });
    const cut = writeFixture(f('cut.mp4'), whole.subarray(0, whole.length - 40));
    const r = await runCli(['posts', 'check', '--platform', 'twitter-x', '--text', 'Hi', '--media', cut, '--json']);
    expect(r.code).toBe(0);
    const x = json(r.stdout);
    expect(rule(x, 'twitter-x', 'media.headers')).toEqual([expect.objectContaining({ verdict: 'warn', message: 'its duration, dimensions and codec cannot be read: the file looks cut short or damaged' })]);
    expect(rule(x, 'twitter-x', 'video.duration')[0]).toMatchObject({ verdict: 'unknown' });
    // Under the table, the warning is told whole (the note column may not fit).
    const table = await runCli(['posts', 'check', '--platform', 'twitter-x', '--text', 'Hi', '--media', cut], { tty: true, columns: 80 });
    expect(table.code).toBe(0);
    expect(table.stderr.replace(/\s+/g, ' ')).toContain('twitter-x cut.mp4: warning: its duration, dimensions and codec cannot be read: the file looks cut short or damaged (fix: export or copy it again whole, then check again)');
    const whole2 = writeFixture(f('whole.mp4'), whole);
    const fine = json((await runCli(['posts', 'check', '--platform', 'twitter-x', '--text', 'Hi', '--media', whole2, '--json'])).stdout);
    expect(rule(fine, 'twitter-x', 'media.headers')).toEqual([]);
  });

  it('tells an input problem under the table once, its field named by the message alone', async () => {
    const r = await runCli(['posts', 'check', '--platform', 'bluesky', '--text', 'Hi', '--media', f('missing.png')]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`input: --media ${f('missing.png')}: no such file (fix: check the path (relative paths start from the current folder, or the file's folder for --file and bulk files))`);
  });

  it('reads the text from --text-file (or stdin) as posts create does, and refuses it beside --text or --file', async () => {
    const long = join(dir, 'long.txt');
    writeFileSync(long, `${'x'.repeat(301)}\n`);
    const r = await runCli(['posts', 'check', '--platform', 'bluesky', '--text-file', long, '--json']);
    expect(r.code).toBe(2);
    expect(rule(json(r.stdout), 'bluesky', 'text.length')[0]).toMatchObject({ verdict: 'fail', actual: '301' });
    const piped = await runCli(['posts', 'check', '--platform', 'bluesky', '--text-file', '-', '--json'], { stdin: 'Two\n\nparagraphs\n' });
    expect(piped.code).toBe(0);
    expect(rule(json(piped.stdout), 'bluesky', 'text.length')[0]).toMatchObject({ verdict: 'pass', actual: '15' });
    const both = await runCli(['posts', 'check', '--platform', 'bluesky', '--text', 'Hi', '--text-file', long]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--text-file cannot be combined with --text');
    const withFile = await runCli(['posts', 'check', '--file', long, '--text-file', long]);
    expect(withFile.code).toBe(2);
    expect(withFile.stderr).toContain('--file cannot be combined with the payload options');
  });

  it("refuses a bulk file that is not UTF-8 (a spreadsheet's Windows-1252 CSV) by its line, and reads UTF-16 with its BOM", async () => {
    const latin1 = join(dir, 'latin1.csv');
    writeFileSync(latin1, Buffer.concat([Buffer.from('at,platforms,text\n2030-01-01T09:00:00Z,bluesky,caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    const refused = await runCli(['posts', 'check', '--from-file', latin1]);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`--from-file ${latin1}: line 2 is not UTF-8 text`);
    const utf16 = join(dir, 'unicode.csv');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('at\tplatforms\ttext\r\n2030-01-01T09:00:00Z\tbluesky\tcafé\r\n', 'utf16le')]));
    const read = await runCli(['posts', 'check', '--from-file', utf16, '--json']);
    expect(read.code).toBe(0);
    expect(json(read.stdout).targets.map((t) => [t.line, t.platform, t.checks[0]!.actual])).toEqual([[2, 'bluesky', '4']]);
  });

  it('says which bulk rows name drafts by postId, whose payloads it cannot judge', async () => {
    const ids = join(dir, 'ids.ndjson');
    writeFileSync(ids, `${JSON.stringify({ postId: 'post_1', scheduledAt: '2030-01-01T00:00:00Z' })}\n${JSON.stringify({ payloads: { bluesky: { text: 'Hi' } }, scheduledAt: '2030-01-01T00:00:00Z' })}\n`);
    const r = await runCli(['posts', 'check', '--from-file', ids, '--json']);
    expect(r.code).toBe(0);
    expect(json(r.stdout).targets.map((t) => t.line)).toEqual([2]);
    expect(r.stderr).toContain('1 row names a draft on the service by postId (line 1): its payloads are not judged here');
  });

  it('prints TSV when piped', async () => {
    const r = await runCli(['posts', 'check', '--platform', 'threads', '--text', 'x'.repeat(501)]);
    expect(r.code).toBe(2);
    const first = r.stdout.split('\n')[0]!.split('\t');
    expect(first.slice(0, 6)).toEqual(['threads', 'text.length', 'fail', '', '501', '≤ 500']);
  });

  it('checks a bulk file row by row, as posts schedule --from-file reads it', async () => {
    const csv = join(dir, 'posts.csv');
    writeFileSync(csv, ['at,platforms,text,media,title', `2030-01-01T09:00:00Z,instagram,${Array.from({ length: 40 }, (_, i) => `#t${i}`).join(' ')},photo.jpg,`, '2030-01-01T10:00:00Z,instagram|youtube,Fine,short.mov,A title', ''].join('\n'));
    const r = await runCli(['posts', 'check', '--from-file', csv, '--json']);
    expect(r.code).toBe(2);
    const report = json(r.stdout);
    expect(report.targets.map((t) => [t.line, t.platform, t.accepted])).toEqual([
      [2, 'instagram', false],
      [3, 'instagram', true],
      [3, 'youtube', true],
    ]);
    expect(report.targets[0]!.checks.find((c) => c.rule === 'text.hashtags')).toMatchObject({ verdict: 'fail', actual: '40', limit: '≤ 30' });
  });

  it('lists what keeps a post from being read as problems (exit 2), and refuses conflicting sources (exit 2)', async () => {
    const r = await runCli(['posts', 'check', '--platform', 'bluesky', '--text', 'Hi', '--media', f('missing.png'), '--json']);
    expect(r.code).toBe(2);
    expect(json(r.stdout).problems).toEqual([expect.objectContaining({ message: expect.stringContaining('no such file') })]);
    const both = await runCli(['posts', 'check', '--file', f('a.json'), '--text', 'Hi']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--file cannot be combined');
  });
});

describe('the same rules stop create and schedule before any request', () => {
  it('refuses a mixed X post and a long X video with the fix, and --no-local-checks leaves them to the service', async () => {
    const r = await runCli(['posts', 'create', '--platform', 'twitter-x', '--text', 'Hi', '--media', f('long.mp4'), '--media', f('square.png'), '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('X takes up to 4 images or one video');
    expect(r.stderr).toContain('remove the video or post it separately');
    expect(r.stderr).toContain('trim it to at most 140 s');
    const unchecked = await runCli(['posts', 'create', '--platform', 'twitter-x', '--text', 'Hi', '--media', f('long.mp4'), '--media', f('square.png'), '--dry-run', '--no-local-checks'], { env: { SOCIALPUB_API_KEY: 'sk_test_local' } });
    expect(unchecked.stderr).not.toContain('X takes up to 4 images');
    expect(unchecked.code).toBe(0);
  });

  it('refuses a YouTube post without a title, Instagram with 40 hashtags, an http:// media URL, naming the field', async () => {
    const yt = await runCli(['posts', 'schedule', '--platform', 'youtube', '--text', 'Watch', '--media', f('long.mp4'), '--at', '+2h', '--dry-run']);
    expect(yt.code).toBe(2);
    expect(yt.stderr).toMatch(/--title: YouTube needs a title/);
    const ig = await runCli(['posts', 'create', '--platform', 'instagram', '--text', Array.from({ length: 40 }, (_, i) => `#t${i}`).join(' '), '--media', f('photo.jpg'), '--dry-run']);
    expect(ig.stderr).toMatch(/--text: 40 hashtags: Instagram takes at most 30/);
    const http = await runCli(['posts', 'create', '--platform', 'bluesky,threads', '--text', 'Hi', '--media', 'http://cdn.example/a.jpg', '--dry-run']);
    expect(http.code).toBe(2);
    expect(http.stderr).toContain('--media http://cdn.example/a.jpg: an http:// URL');
    expect(http.stderr).toContain('https://cdn.example/a.jpg');
    expect(http.stderr.match(/an http:\/\/ URL/g)).toHaveLength(1);
  });
});

describe('MCP check_post', () => {
  const tool = TOOLS.find((t) => t.name === 'check_post')!;
  const tcWith = (mediaDirs: string[]) => ({ deps: { client: () => Promise.reject(new Error('no client needed')), mediaDirs } }) as unknown as ToolContext;

  it('is read-only and returns each platform verdict, sending nothing', async () => {
    expect(tool.write).toBe(false);
    expect(tool.annotations.readOnlyHint).toBe(true);
    const res = await tool.run({ platforms: ['twitter-x', 'linkedin'], text: 'Launch', media: [f('long.mp4')] }, tcWith([dir]));
    expect(res.accepted).toBe(false);
    const platforms = res.platforms as Report['targets'];
    expect(platforms.map((p) => [p.platform, p.accepted])).toEqual([
      ['twitter-x', false],
      ['linkedin', true],
    ]);
    expect(platforms[0]!.checks.find((c) => c.rule === 'video.duration')).toMatchObject({ verdict: 'fail', fix: expect.stringContaining('140 s') });
    expect(platforms[0]!.checks.find((c) => c.rule === 'text.length')).toMatchObject({ verdict: 'pass', actual: '6', limit: '≤ 280' });
  });

  it('judges no local file outside the folders the server was started with (--media-dir)', async () => {
    const refused = tool.run({ platforms: ['twitter-x'], text: 'Launch', media: [f('long.mp4')] }, tcWith([]));
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(refused).rejects.toThrow(/--media-dir/);
  });

  it('refuses a relative media path as invalid input', async () => {
    await expect(tool.run({ platforms: ['bluesky'], text: 'Hi', media: ['photo.jpg'] }, tcWith([dir]))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('checkSummary', () => {
  const check = (verdict: RuleCheck['verdict']): RuleCheck => ({ rule: 'r', verdict, actual: '', limit: '', source: '' });
  it('counts the accepted targets, the input problems, the warnings and the rules left to the platform', () => {
    const targets = [
      { platform: 'x', name: 'X', accepted: true, checks: [check('pass'), check('warn'), check('unknown')] },
      { platform: 'y', name: 'Y', accepted: false, checks: [check('fail'), check('warn'), check('unknown'), check('unknown')] },
    ];
    expect(checkSummary({ accepted: false, problems: [{ field: 'f', message: 'm' }], targets })).toBe(
      "1 of 2 targets would be accepted; 1 problem in the input; 2 warnings (not refusals); 3 rules left to the platform (facts not read here)",
    );
    expect(checkSummary({ accepted: true, problems: [], targets: [targets[0]!] })).toBe(
      "1 of 1 target would be accepted; 1 warning (not refusals); 1 rule left to the platform (facts not read here)",
    );
  });
});
