// Composing on a terminal offers what a post carries beyond its text (contract 7.3): a long text
// typed at the prompt is taken for a thread (--thread), and the confirmation's Edit adds a first
// comment, alt text for each image and a platform's setting, each shown before sending.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { composeFile } from '../../src/posts/edit-file.js';

const dir = mkdtempSync(join(tmpdir(), 'posts-prompts-extras-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', SOCIALPUB_API_KEY: 'sk_test_never_used_1234', TZ: 'UTC' };
const NOW = Date.parse('2026-06-01T12:00:00Z');
const clock = { now: () => NOW, sleep: async () => {} };
const run = (argv: string[], prompter: ScriptedPrompter) => runCli(argv, { env, clock, tty: true, prompter, columns: 120 });

/** A square PNG (its header is what is read). */
function png(path: string): string {
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const ihdr = Buffer.concat([u32(13), Buffer.from('IHDR'), u32(1080), u32(1080), Buffer.from([8, 2, 0, 0, 0]), u32(0)]);
  writeFileSync(path, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(2048)]));
  return path;
}

const LONG = ['First paragraph, about the launch of the new thing we have been building all year long.', 'Second paragraph: what it does for you, in more words than one Bluesky post can carry at once.', 'Third paragraph: where to find it, and who to thank for it, with a link to the announcement page.', 'Fourth paragraph: what comes next.'].join('\n\n');

describe('composing on a terminal: thread, first comment, alt text, settings', () => {
  it('with --thread a long text typed at the prompt is split; Edit adds a first comment, alt text and a setting', async () => {
    const image = png(join(dir, 'chart.png'));
    const prompter = new ScriptedPrompter([LONG, 'edit', 'firstComment', '#launch #news', 'edit', 'alt', 'A rising chart', 'edit', 'option', 'visibility', 'CONNECTIONS', 'cancel']);
    const r = await run(['posts', 'create', '--platform', 'bluesky,linkedin', '--thread', '--media', image], prompter);
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked).toEqual([
      'Text for bluesky, linkedin (Enter alone: write it in your editor; - : one text per platform)',
      'Send it?',
      'Change what?',
      'First comment, under the post on linkedin (empty for none)',
      'Send it?',
      'Change what?',
      'Alt text for chart.png, what it shows for people who cannot see it (at most 2000 characters; empty for none)',
      'Send it?',
      'Change what?',
      'Which linkedin setting?',
      expect.stringMatching(/^linkedin\.visibility \(/),
      'Send it?',
    ]);
    expect(r.stderr).toContain('cancelled: nothing was sent');
    // The last summary shows each of them.
    const last = r.stderr.slice(r.stderr.lastIndexOf('This will be sent:'));
    // Bluesky takes threads (the text is split, each part within 300); LinkedIn takes it whole.
    expect(Number(/thread\s+bluesky\s+(\d+) parts/.exec(last)?.[1])).toBeGreaterThanOrEqual(2);
    expect(last).not.toMatch(/thread\s+.*linkedin/);
    expect(last).toMatch(/linkedin\s+\d+ of 3000 characters/);
    expect(last).toMatch(/comment\s+"#launch #news"/);
    expect(last).toMatch(/alt "A rising chart"/);
    expect(last).toMatch(/settings\s+linkedin\.visibility=CONNECTIONS/);
  });

  it('without --thread the same text is refused at the prompt for Bluesky; Edit turns the thread on and names it', async () => {
    const refused = new ScriptedPrompter([LONG], { reask: true });
    await run(['posts', 'create', '--platform', 'bluesky'], refused);
    expect(refused.refused[0]?.reason).toMatch(/over bluesky's limit of 300/);
    const prompter = new ScriptedPrompter(['Short', '', 'edit', 'thread', true, 'cancel']);
    const r = await run(['posts', 'create', '--platform', 'bluesky'], prompter);
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked.slice(2)).toEqual(['Send it?', 'Change what?', 'A text too long for one post on bluesky:', 'Send it?']);
  });

  it('an option value the platform does not take is refused at the prompt with what it takes', async () => {
    const prompter = new ScriptedPrompter(['A video', 'edit', 'option', 'tags', 'x'.repeat(600), '', 'cancel'], { reask: true });
    const r = await run(['posts', 'create', '--platform', 'youtube', '--media', 'https://cdn.example/v.mp4', '--title', 'T'], prompter);
    expect(r.code, `${r.stderr}\n${prompter.asked.join('\n')}`).toBe(0);
    expect(prompter.refused[0]?.reason).toMatch(/tags come to 600 characters; YouTube takes at most 500/);
  });

  it('Edit gives a later part of the thread its own media, asked again while the file is not there; the summary names it', async () => {
    const chart = png(join(dir, 'part-chart.png'));
    const marked = 'One.\n---\nTwo, with a chart.\n---\nThree.';
    const prompter = new ScriptedPrompter([marked, '', 'edit', 'partMedia', 3, join(dir, 'nope.png'), chart, 'cancel'], { reask: true });
    const r = await run(['posts', 'create', '--platform', 'bluesky', '--thread'], prompter);
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked.slice(2)).toEqual(['Send it?', 'Change what?', 'Media for which part of the thread?', 'Media for thread part 3, files or URLs, comma-separated (empty for none)', 'Media for thread part 3, files or URLs, comma-separated (empty for none)', 'Send it?']);
    expect(prompter.refused[0]?.reason).toMatch(/nope\.png: no such file/);
    const last = r.stderr.slice(r.stderr.lastIndexOf('This will be sent:'));
    expect(last).toMatch(/thread\s+bluesky\s+3 parts · part 3: part-chart\.png/);
  });

  it("the editor, composing a thread, says how parts are marked instead of one post's limit", () => {
    expect(composeFile(['bluesky'], '', true)).toContain('// holding only --- starts the next part.');
    expect(composeFile(['bluesky'], '', false)).toContain('bluesky: at most 300');
  });
});
