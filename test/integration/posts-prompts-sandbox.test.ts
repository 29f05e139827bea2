// Prompts against a live sandbox: a bad flag sends nothing and asks nothing; a bad media answer
// is asked again and what was typed before it is still what is sent, after a summary.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { JPEG_HEAD, allPosts, cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'posts-prompts-sb-'));
beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('prompts against the sandbox', () => {
  it('a bad flag on a terminal: exit 2, no question, no request', async () => {
    const before = sb.requests.length;
    const prompter = new ScriptedPrompter([]);
    const r = await runCli(['posts', 'schedule', '--platform', 'twiter', '--text', 'hi'], { env: cliEnv(sb), tty: true, prompter, clock: sandboxClock(sb.clock) });
    expect(r.code).toBe(2);
    expect(prompter.asked).toEqual([]);
    expect(sb.requests.length).toBe(before);
  });

  it('keeps the text typed before a bad media answer, shows the summary, then sends', async () => {
    const photo = join(dir, 'photo.jpg');
    writeFileSync(photo, Buffer.concat([JPEG_HEAD, Buffer.alloc(4096)]));
    const prompter = new ScriptedPrompter(['Caption typed once', join(dir, 'nope.jpg'), photo, 'send'], { reask: true });
    const r = await runCli(['posts', 'create', '--platform', 'instagram'], { env: cliEnv(sb), tty: true, prompter, clock: sandboxClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.refused).toHaveLength(1);
    expect(r.stderr).toMatch(/instagram\s+18 of 2200 characters\s+"Caption typed once"/);
    expect(r.stderr).toMatch(/photo\.jpg\s+JPEG image \(image\/jpeg\), 4 KB/);
    const posts = await allPosts(sb);
    const sent = posts.map((p) => p.payloads.instagram as { text?: string; media?: unknown[] } | undefined).find((p) => p?.text === 'Caption typed once');
    expect(sent?.media).toHaveLength(1);
    expect(sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(expect.arrayContaining(['POST /v1/media', 'POST /v1/posts']));
  });

  it('media given to a thread part at the prompts are uploaded and reach the service on that part', async () => {
    const chart = join(dir, 'chart.jpg');
    writeFileSync(chart, Buffer.concat([JPEG_HEAD, Buffer.alloc(2048)]));
    const text = 'Thread start.\n---\nThe chart.\n---\nThe end.';
    // The text typed at the prompt (so the summary is shown, with its Edit).
    const prompter = new ScriptedPrompter([text, 'edit', 'partMedia', 2, chart, 'send']);
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--thread', '--media', chart], { env: cliEnv(sb), tty: true, prompter, clock: sandboxClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    const sent = (await allPosts(sb)).map((p) => p.payloads.bluesky as { text?: string; thread?: Array<{ text: string; media?: Array<{ url: string }> }> } | undefined).find((p) => p?.text === 'Thread start.');
    expect(sent?.thread?.map((t) => [t.text, t.media?.length ?? 0])).toEqual([['The chart.', 1], ['The end.', 0]]);
    expect(sent?.thread?.[0]?.media?.[0]?.url).toMatch(/^https?:\/\//);
  });

  it("a thread part's media are asked for alt text as the post's own are: skippable, held to the same limit, and it reaches the service", async () => {
    const photo = join(dir, 'cover.jpg');
    const chart = join(dir, 'sales.jpg');
    for (const f of [photo, chart]) writeFileSync(f, Buffer.concat([JPEG_HEAD, Buffer.alloc(2048)]));
    const text = 'Sales report.\n---\nThe sales chart.\n---\nThanks.';
    const alt = 'A bar chart of sales by month, rising from March';
    // Own media's alt skipped (empty); the part's first answer is over Bluesky's 2,000 and asked again.
    const prompter = new ScriptedPrompter([text, 'edit', 'partMedia', 2, chart, 'edit', 'alt', '', 'x'.repeat(2001), alt, 'send'], { reask: true });
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--thread', '--media', photo], { env: cliEnv(sb), tty: true, prompter, clock: sandboxClock(sb.clock) });
    expect(r.code, r.stderr).toBe(0);
    const asked = 'Alt text for sales.jpg (thread part 2), what it shows for people who cannot see it (at most 2000 characters; empty for none)';
    expect(prompter.asked).toEqual(expect.arrayContaining([expect.stringMatching(/^Alt text for cover\.jpg, what it shows/), asked]));
    expect(prompter.refused).toEqual([{ answer: 'x'.repeat(2001), reason: '2001 characters: at most 2000' }]);
    const sent = (await allPosts(sb)).map((p) => p.payloads.bluesky as { text?: string; media?: Array<{ alt?: string }>; thread?: Array<{ text: string; media?: Array<{ url: string; alt?: string }> }> } | undefined).find((p) => p?.text === 'Sales report.');
    expect(sent?.media?.[0]?.alt).toBeUndefined();
    expect(sent?.thread?.[0]?.media?.map((m) => m.alt)).toEqual([alt]);
    expect(sent?.thread?.[1]?.media ?? []).toEqual([]);
  });

  it('with media only on a thread part, Edit still offers their alt text', async () => {
    const chart = join(dir, 'only-part.jpg');
    writeFileSync(chart, Buffer.concat([JPEG_HEAD, Buffer.alloc(2048)]));
    const prompter = new ScriptedPrompter(['Only parts.\n---\nThe chart.', '', 'edit', 'partMedia', chart, 'edit', 'alt', 'A chart', 'send']);
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--thread'], { env: cliEnv(sb), tty: true, prompter, clock: sandboxClock(sb.clock) });
    expect(r.code, `${r.stderr}\n${prompter.asked.join('\n')}`).toBe(0);
    expect(prompter.offered.get('Change what?')?.map((c) => c.value)).toContain('alt');
    const sent = (await allPosts(sb)).map((p) => p.payloads.bluesky as { text?: string; thread?: Array<{ media?: Array<{ alt?: string }> }> } | undefined).find((p) => p?.text === 'Only parts.');
    expect(sent?.thread?.[0]?.media?.map((m) => m.alt)).toEqual(['A chart']);
  });
});
