// The MCP write tools with thread: their answer says how the text was split (parts per platform)
// and every word or URL cut between two parts, in the CLI's words (posts check's thread.cut rows,
// posts create's warning line). The SDK's client over a real stdio pipe to the built binary, which
// talks real HTTP to a sandbox started here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BIN, ensureBuilt } from './ensure-built.js';
import { startSession, type McpSession } from './mcp-session.js';

let sb: Sandbox;
let tmp: string;
let env: Record<string, string>;
let s: McpSession;

beforeAll(async () => {
  await ensureBuilt();
  // A manual clock at the real time: the binary's "is this time in the future" agrees with the sandbox's.
  sb = await startSandbox({ port: 0, seed: 21, failureRate: 0, clock: createManualClock(Date.now()) });
  tmp = mkdtempSync(join(tmpdir(), 'socialpub-mcp-thread-'));
  env = { HOME: tmp, SOCIALPUB_CONFIG_DIR: join(tmp, 'config'), SOCIALPUB_API_KEY: sb.key('demo'), SOCIALPUB_BASE_URL: sb.url, TZ: 'UTC' };
  s = await startSession(['mcp'], env);
}, 120_000);
afterAll(async () => {
  await s?.close();
  await sb?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// 200 short words, then a link longer than a whole Bluesky part (300): Bluesky's thread must cut it.
const URL_TOO_LONG = `https://example.com/${'a'.repeat(400)}`;
const TEXT = `${Array.from({ length: 200 }, () => 'word').join(' ')} ${URL_TOO_LONG}`;
const PLATFORMS = ['bluesky', 'twitter-x', 'linkedin'];

interface Split {
  platform: string;
  parts: number;
  warnings: Array<{ rule: string; verdict: string; part: number; path: string; message: string; fix: string }>;
}

async function stored(id: string): Promise<{ payloads: Record<string, { text: string; thread?: unknown[] }> }> {
  const res = await fetch(new URL(`/v1/posts/${id}`, sb.url), { headers: { authorization: `Bearer ${sb.key('demo')}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as never;
}

describe('create_draft and schedule_post with thread', () => {
  it("create_draft: each platform's parts, as stored, and the cut link in posts check's row and posts create's words", async () => {
    const r = await s.call('create_draft', { platforms: PLATFORMS, text: TEXT, thread: true });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const split = r.structuredContent.thread as Split[];
    expect(split.map((t) => t.platform)).toEqual(PLATFORMS);
    // The parts said are the parts the service holds.
    const post = await stored((r.structuredContent.post as { id: string }).id);
    for (const t of split) expect(t.parts, t.platform).toBe(1 + (post.payloads[t.platform]!.thread?.length ?? 0));
    expect(split.find((t) => t.platform === 'bluesky')!.parts).toBeGreaterThan(1);
    expect(split.find((t) => t.platform === 'linkedin')).toMatchObject({ parts: 1, warnings: [] });

    // The cut: the very row check_post (posts check) gives for the same text, and no other.
    const bluesky = split.find((t) => t.platform === 'bluesky')!;
    expect(bluesky.warnings).toHaveLength(1);
    const check = await s.call('check_post', { platforms: PLATFORMS, text: TEXT, thread: true });
    const rows = (check.structuredContent.platforms as Array<{ platform: string; checks: Array<{ rule: string }> }>).find((p) => p.platform === 'bluesky')!.checks.filter((c) => c.rule === 'thread.cut');
    expect(bluesky.warnings).toEqual(rows);
    expect(bluesky.warnings[0]).toMatchObject({ rule: 'thread.cut', verdict: 'warn', message: expect.stringMatching(/^a URL of 420 characters is longer than a whole part \(300\) and is cut between thread parts \d+ and \d+/) });
    expect(split.find((t) => t.platform === 'twitter-x')!.warnings).toEqual([]);

    // The note says the split, and the cut in the line `posts create --thread` warns with.
    const note = r.structuredContent.note as string;
    expect(note).toContain(`Thread: bluesky: a thread of ${bluesky.parts} parts; twitter-x: a thread of`);
    expect(note).toContain('linkedin: one post, no thread');
    const warning = cliWarning(PLATFORMS);
    expect(warning).toMatch(/^warning: --text: bluesky: a URL of 420 characters/);
    expect(note).toContain(`Tell the user: ${warning.replace(/^warning: --text: /, 'text: ')}`);
    // The answer's text is the same JSON: an assistant without structured content reads it too.
    const text = (r.content as Array<{ type: string; text: string }>).find((c) => c.type === 'text')!.text;
    expect(text).toContain(JSON.stringify(split));
  });

  it('schedule_post dry_run: the same split, nothing sent', async () => {
    const before = sb.requests.length;
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const r = await s.call('schedule_post', { platforms: ['bluesky'], text: TEXT, thread: true, at, dry_run: true });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    expect(sb.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
    const [bluesky] = r.structuredContent.thread as Split[];
    expect(bluesky).toMatchObject({ platform: 'bluesky', warnings: [{ rule: 'thread.cut' }] });
    expect(r.structuredContent.note).toMatch(/^nothing was sent\. Thread: bluesky: a thread of \d+ parts\. Tell the user: text: bluesky: a URL of 420 characters/);
  });

  it('without thread, or with a text that fits: no cut, and without thread no split said', async () => {
    const plain = await s.call('create_draft', { platforms: ['bluesky'], text: 'short and sweet' });
    expect(plain.structuredContent.thread).toBeUndefined();
    expect(plain.structuredContent.note).toBe('draft created');
    const fits = await s.call('create_draft', { platforms: ['bluesky'], text: 'short, with thread', thread: true });
    expect(fits.structuredContent.thread).toEqual([{ platform: 'bluesky', parts: 1, warnings: [] }]);
    expect(fits.structuredContent.note).toBe('draft created. Thread: bluesky: one post, no thread');
  });
});

/** The warning line `posts create --thread --dry-run` prints on stderr for these platforms and TEXT (it sends nothing). */
function cliWarning(platforms: string[]): string {
  const r = spawnSync(process.execPath, [BIN, 'posts', 'create', '--platform', platforms.join(','), '--text', TEXT, '--thread', '--dry-run'], {
    env: { ...env, PATH: process.env.PATH ?? '', CI: 'true' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr.split('\n').find((l) => l.startsWith('warning: '))!;
}
