// posts preview <id> against the sandbox: the post read from the service, and --web opening the
// sandbox's own page for it, or a 0600 local file when the base URL is not a sandbox.
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ROOMY_LIMITS, testSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runCli } from '../helpers/run-cli.js';
import { postReadsChanged, withoutAccountsRoute } from '../helpers/route-proxy.js';
import { displayWidth } from '../../src/output/width.js';

let sb: TestSandbox;
let id: string;
const dir = mkdtempSync(join(tmpdir(), 'socialpub-preview-web-'));
const opened = join(dir, 'opened.txt');
const browser = join(dir, 'browser.sh');

beforeAll(async () => {
  sb = await testSandbox({ ...ROOMY_LIMITS });
  writeFileSync(browser, `#!/bin/sh\nprintf %s "$1" > '${opened}'\n`);
  chmodSync(browser, 0o700);
  const body = { title: 'Launch', payloads: { instagram: { text: `${'Big news today. '.repeat(10)}The rest.`, media: [{ url: 'https://e.x/a.jpg', alt: 'the team' }], firstComment: 'Link in bio' }, 'twitter-x': { text: 'one', thread: [{ text: 'two' }] } } };
  const r = await runCli(['posts', 'create', '--file', '-', '-q'], { env: cliEnv(sb), stdin: JSON.stringify(body) });
  id = r.stdout.trim();
});
afterAll(() => sb.close());

describe('posts preview <id>', () => {
  it('prints the fold, what it hides, alt text, first comment and the thread parts', async () => {
    const r = await runCli(['posts', 'preview', id], { env: cliEnv(sb) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('instagram');
    expect(r.stdout).toMatch(/… more — hidden/);
    expect(r.stdout).toContain('alt: the team');
    expect(r.stdout).toContain('first comment:');
    expect(r.stdout).toMatch(/1\/2[\s\S]*one[\s\S]*2\/2[\s\S]*two/);
  });

  it('on a 60-column terminal a long alt text and the feed crop wrap under their label, not at column 0', async () => {
    const alt = 'The whole launch team on the roof of the office at sunset, holding the first printed copy of the product manual';
    const r = await runCli(['posts', 'preview', '--platform', 'twitter-x', '--text', 'Launch day', '--media', 'https://e.x/roof.jpg', '--alt', alt], { tty: true, columns: 60, env: { NO_COLOR: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    const start = lines.findIndex((l) => l.startsWith('    alt: The whole launch team'));
    expect(start, r.stdout).toBeGreaterThan(0);
    // The rest of the alt text on the lines below, indented past "alt:", and nothing of it lost.
    const rest = lines.slice(start + 1).filter((l) => l.startsWith('      ') && !/^\s*(feed crop|\[)/.test(l.trim()));
    expect(rest.length).toBeGreaterThan(0);
    expect([lines[start]!, ...rest].map((l) => l.trim()).join(' ').replace(/^alt: /, '')).toContain(alt);
    const crop = lines.findIndex((l) => l.startsWith('  feed crop:'));
    expect(lines[crop + 1], r.stdout).toMatch(/^ {4}\S/);
  });

  it('names the target accounts as accounts list does (platform:@handle), with one request to the accounts route; without the route, by id', async () => {
    const post = (await (await fetch(`${sb.url}/v1/posts/${id}`, { headers: { authorization: `Bearer ${sb.key('demo')}` } })).json()) as { payloads: Record<string, { accounts: string[] }> };
    const listed = await runCli(['accounts', 'list', '--json'], { env: cliEnv(sb) });
    const labels = new Map((JSON.parse(listed.stdout) as { id: string; platform: string; username: string }[]).map((a) => [a.id, `${a.platform}:@${a.username.replace(/^@/, '')}`]));
    const [insta] = post.payloads.instagram!.accounts;
    expect(labels.get(insta!)).toMatch(/^instagram:@/);
    const before = sb.requests.length;
    const r = await runCli(['posts', 'preview', id], { env: cliEnv(sb) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`accounts: ${labels.get(insta!)}`);
    expect(r.stdout).not.toContain(insta!);
    expect(sb.requests.slice(before).filter((q) => q.path === '/v1/social-accounts')).toHaveLength(1);
    // --json keeps the ids, and asks for no accounts.
    const json = await runCli(['posts', 'preview', id, '--json'], { env: cliEnv(sb) });
    expect(JSON.parse(json.stdout).platforms.find((p: { platform: string }) => p.platform === 'instagram').accounts).toEqual([insta]);
    const proxy = await withoutAccountsRoute(sb.url);
    try {
      const bare = await runCli(['posts', 'preview', id], { env: { SOCIALPUB_BASE_URL: proxy.url, SOCIALPUB_API_KEY: sb.key('demo') } });
      expect(bare.code, bare.stderr).toBe(0);
      expect(bare.stdout).toContain(`accounts: ${insta}`);
    } finally {
      await proxy.close();
    }
  });

  it('a text over its limit where the platform takes threads is offered `posts edit <id> --thread`, as a preview of options offers --thread; not once the post went out', async () => {
    const long = `${'This sentence goes on for a while. '.repeat(11)}The end.`;
    const created = await runCli(['posts', 'create', '--platform', 'bluesky,linkedin', '--text', 'Short for now', '--json'], { env: cliEnv(sb) });
    const draftId = (JSON.parse(created.stdout) as { id: string }).id;
    // A service whose limits are looser than the client's table: its post holds a longer text.
    const lengthen = (post: Record<string, any>) => ({ ...post, payloads: Object.fromEntries(Object.entries(post.payloads as Record<string, object>).map(([p, v]) => [p, { ...v, text: long }])) });
    const proxy = await postReadsChanged(sb.url, lengthen);
    const wentOut = await postReadsChanged(sb.url, (post) => ({ ...lengthen(post), status: 'failed' }));
    try {
      const local = await runCli(['posts', 'preview', '--platform', 'bluesky,linkedin', '--text', long], { env: { NO_COLOR: '1' } });
      expect(local.code, local.stderr).toBe(0);
      const byOptions = local.stdout.replace(/\s+/g, ' ');
      expect(byOptions).toContain('or split it into a thread with --thread');
      const r = await runCli(['posts', 'preview', draftId], { env: { SOCIALPUB_BASE_URL: proxy.url, SOCIALPUB_API_KEY: sb.key('demo'), NO_COLOR: '1' } });
      expect(r.code, r.stderr).toBe(0);
      const byId = r.stdout.replace(/\s+/g, ' ');
      expect(byId).toMatch(/bluesky \d+ of 300 characters, \d+ over the limit/);
      expect(byId).toContain(`shorten it by ${long.length - 300} characters, or split it into a thread with \`socialpub posts edit ${draftId} --thread\``);
      // LinkedIn takes the text whole (3000) and no thread: nothing offered there.
      expect(byId.match(/split it into a thread/g)).toHaveLength(1);
      const failed = await runCli(['posts', 'preview', draftId], { env: { SOCIALPUB_BASE_URL: wentOut.url, SOCIALPUB_API_KEY: sb.key('demo'), NO_COLOR: '1' } });
      expect(failed.code, failed.stderr).toBe(0);
      expect(failed.stdout.replace(/\s+/g, ' ')).toContain(`shorten it by ${long.length - 300} characters`);
      expect(failed.stdout).not.toContain('posts edit');
    } finally {
      await proxy.close();
      await wentOut.close();
    }
  });

  it('--thread that has to cut a word longer than a whole part says so on stderr, as posts create does, naming the text\'s source', async () => {
    const text = `Intro. ${'x'.repeat(400)} end`;
    const file = join(dir, 'long-word.txt');
    writeFileSync(file, text);
    for (const [given, label] of [[['--text', text], '--text'], [['--text-file', file], `--text-file ${file}`]] as const) {
      const argv = ['--platform', 'bluesky', ...given, '--thread'];
      const created = await runCli(['posts', 'create', ...argv, '--dry-run'], { env: cliEnv(sb) });
      const shown = await runCli(['posts', 'preview', ...argv], { env: cliEnv(sb) });
      expect(shown.code, shown.stderr).toBe(0);
      const warning = `warning: ${label}: bluesky: a word of 400 characters is longer than a whole part (300)`;
      expect(created.stderr).toContain(warning);
      expect(shown.stderr).toContain(created.stderr.split('\n').find((l) => l.startsWith(warning))!);
      expect(shown.stdout).not.toContain('warning');
    }
  });

  it('--web opens the sandbox\'s page of the post', async () => {
    const r = await runCli(['posts', 'preview', id, '--web'], { env: cliEnv(sb, 'demo', { SOCIALPUB_BROWSER: browser }) });
    expect(r.code).toBe(0);
    expect(readFileSync(opened, 'utf8')).toBe(`${sb.url}/dashboard/posts/${id}`);
  });

  it('--web from payload options writes a local page, 0600, and opens it', async () => {
    const r = await runCli(['posts', 'preview', '--platform', 'linkedin', '--text', '<b>hi</b>', '--web'], { env: { SOCIALPUB_BROWSER: browser } });
    expect(r.code).toBe(0);
    const url = readFileSync(opened, 'utf8');
    expect(url).toMatch(/^file:\/\//);
    const file = fileURLToPath(url);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('&lt;b&gt;hi&lt;/b&gt;');
  });
});
