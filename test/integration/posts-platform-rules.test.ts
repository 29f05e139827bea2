// Text counted as each platform counts it and media recognised by content, end to end
// against the sandbox. Bad input exits 2 and sends nothing (the sandbox's request log is
// unchanged); what the platform takes goes through, in the CLI and in the service's stand-in.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { MP4_HEAD, PNG_HEAD, cliEnv, demoKey, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'posts-rules-'));
const f = (name: string) => join(dir, name);

beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
  writeFileSync(f('rand.png'), randomBytes(3 * 1024 * 1024));
  writeFileSync(f('bogus.png'), 'just some text!\n');
  writeFileSync(f('report.jpg'), '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n');
  writeFileSync(f('picture'), PNG_HEAD);
  writeFileSync(f('clip.mov'), MP4_HEAD);
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) => runCli(argv, { env: cliEnv(sb), clock: sandboxClock(sb.clock) });

async function refused(argv: string[]): Promise<string> {
  const before = sb.requests.length;
  const r = await run(...argv);
  expect(r.code, r.stderr).toBe(2);
  expect(sb.requests.length).toBe(before);
  return r.stderr;
}

async function api(body: unknown): Promise<{ status: number; json: { error?: { issues?: Array<{ path: string; message: string }> } } }> {
  const res = await fetch(new URL('/v1/posts', sb.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${demoKey(sb)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as never };
}

describe('text counted as each platform counts it', () => {
  const thumbs = '👍🏽'.repeat(250);
  const cjk = '日'.repeat(250);

  it('Bluesky takes 250 thumbs-up with a skin tone (250 graphemes of 300), in the CLI and the service', async () => {
    const r = await run('posts', 'create', '--platform', 'bluesky', '--text', thumbs, '-q');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^post_/);
    expect((await api({ payloads: { bluesky: { text: thumbs } } })).status).toBe(201);
  });

  it('X refuses 250 CJK characters (500 of 280), saying why, before any request', async () => {
    const stderr = await refused(['posts', 'create', '--platform', 'twitter-x', '--text', cjk]);
    expect(stderr).toContain("500 characters is 220 over twitter-x's limit of 280 (X counts this text as 500: 250 CJK characters count 2 each)");
  });

  it('the service refuses it too, with the same count', async () => {
    const r = await api({ payloads: { 'twitter-x': { text: cjk } } });
    expect(r.status).toBe(422);
    expect(r.json.error?.issues).toContainEqual({ path: 'payloads.twitter-x.text', message: 'is 500 characters; twitter-x allows at most 280 (X counts this text as 500: 250 CJK characters count 2 each)' });
  });

  it('X counts every URL as 23: long URLs fit, and an overflow says so', async () => {
    const longUrl = `https://example.com/${'a'.repeat(300)}`;
    const fits = await run('posts', 'create', '--platform', 'twitter-x', '--text', `read ${longUrl}`, '-q');
    expect(fits.code, fits.stderr).toBe(0);
    const text = `${'a'.repeat(233)} https://example.com/1 https://example.com/2`; // 233 + 1 + 23 + 1 + 23 = 281
    const stderr = await refused(['posts', 'create', '--platform', 'twitter-x', '--text', text]);
    expect(stderr).toContain("281 characters is 1 over twitter-x's limit of 280 (X counts this text as 281: 2 URLs count 23 each)");
  });
});

describe('media recognised by content', () => {
  it('refuses 3 MB of random bytes named rand.png and 16 bytes of text named bogus.png, saying what they are', async () => {
    const stderr = await refused(['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--media', f('rand.png'), '--media', f('bogus.png')]);
    expect(stderr).toMatch(/rand\.png: the content is not an image or video the platforms take \(looks like binary data of no known format/);
    expect(stderr).toMatch(/bogus\.png: the content is not an image or video the platforms take \(looks like text/);
  });

  it('names a known non-media format', async () => {
    const stderr = await refused(['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--media', f('report.jpg')]);
    expect(stderr).toMatch(/report\.jpg: the content is not an image or video the platforms take \(looks like a PDF document/);
  });

  it('uploads by content: a PNG without an extension goes up as image/png, an MP4 named .mov as video/mp4', async () => {
    const before = sb.requests.length;
    // Threads takes images and videos mixed in one post (Bluesky and X do not).
    const r = await run('posts', 'create', '--platform', 'threads', '--text', 'hi', '--media', f('picture'), '--media', f('clip.mov'), '-q');
    expect(r.code, r.stderr).toBe(0);
    const media = await (await fetch(new URL('/v1/posts/' + r.stdout.trim(), sb.url), { headers: { authorization: `Bearer ${demoKey(sb)}` } })).json() as { payloads: { threads: { media: Array<{ url: string; type: string }> } } };
    expect(media.payloads.threads.media.map((m) => m.type)).toEqual(['image', 'video']);
    const uploads = sb.requests.slice(before).filter((q) => q.method === 'PUT');
    expect(uploads).toHaveLength(2);
    const types = await Promise.all(
      media.payloads.threads.media.map(async (m) => (await fetch(m.url)).headers.get('content-type')),
    );
    expect(types).toEqual(['image/png', 'video/mp4']);
  });
});
