// Composing a post as a manager does against the sandbox: a text from a file or stdin with its
// paragraphs, the editor from the text prompt (a scripted $EDITOR), and the confirmation's
// Send / Edit / Cancel, with a summary that fits the terminal.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { displayWidth } from '../../src/output/width.js';
import { allPosts, cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'posts-compose-'));
// The scripted editor: records what it was opened on, then saves the next queued text.
const editor = join(dir, 'editor.mjs');
const queue = join(dir, 'queue.json');
const seen = join(dir, 'seen.json');
writeFileSync(
  editor,
  `import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
const texts = JSON.parse(readFileSync(${JSON.stringify(queue)}, 'utf8'));
let opened = [];
try { opened = JSON.parse(readFileSync(${JSON.stringify(seen)}, 'utf8')); } catch {}
opened.push(readFileSync(file, 'utf8'));
writeFileSync(${JSON.stringify(seen)}, JSON.stringify(opened));
writeFileSync(file, texts.shift());
writeFileSync(${JSON.stringify(queue)}, JSON.stringify(texts));
`,
);
function scriptEditor(texts: string[]): Record<string, string> {
  writeFileSync(queue, JSON.stringify(texts));
  writeFileSync(seen, '[]');
  return { EDITOR: `${process.execPath} ${editor}` };
}
const openedWith = () => JSON.parse(readFileSync(seen, 'utf8')) as string[];

const LETTER = 'We moved the launch.\n\nNew date: Thursday.\nSee you there!';

beforeAll(async () => {
  sb = await manualSandbox({ failureRate: 0 });
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (argv: string[], options: Parameters<typeof runCli>[1] = {}) =>
  runCli(argv, { clock: sandboxClock(sb.clock), ...options, env: { ...cliEnv(sb), ...options.env } });
const sentText = async (id: string, platform: string) => ((await allPosts(sb)).find((p) => p.id === id)?.payloads[platform] as { text?: string } | undefined)?.text;

describe('--text-file', () => {
  it('sends the text of a file with its paragraphs (CRLF and the final newline dropped)', async () => {
    const file = join(dir, 'letter.txt');
    writeFileSync(file, `${LETTER.replace(/\n/g, '\r\n')}\r\n`);
    const r = await run(['posts', 'create', '--platform', 'linkedin', '--text-file', file, '-q']);
    expect(r.code, r.stderr).toBe(0);
    expect(await sentText(r.stdout.trim(), 'linkedin')).toBe(LETTER);
  });

  it('reads stdin with -', async () => {
    const r = await run(['posts', 'create', '--platform', 'bluesky', '--text-file', '-', '-q'], { stdin: `${LETTER}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(await sentText(r.stdout.trim(), 'bluesky')).toBe(LETTER);
  });

  it('is refused with --text, and names itself when its text is too long; nothing sent', async () => {
    const file = join(dir, 'long.txt');
    writeFileSync(file, 'x'.repeat(301));
    const before = sb.requests.length;
    const both = await run(['posts', 'create', '--platform', 'bluesky', '--text', 'hi', '--text-file', file]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--text-file cannot be combined with --text');
    const long = await run(['posts', 'create', '--platform', 'bluesky', '--text-file', file]);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/--text-file .*long\.txt.*301 characters is 1 over bluesky's limit of 300/);
    const missing = await run(['posts', 'create', '--platform', 'bluesky', '--text-file', join(dir, 'nope.txt')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--text-file .*nope\.txt: no such file/);
    expect(sb.requests.length).toBe(before);
  });
});

describe('on a terminal', () => {
  it('Enter alone at the text prompt opens the editor, and its text is sent as written', async () => {
    const env = scriptEditor([`\n${LETTER}\n`]);
    const prompter = new ScriptedPrompter(['', '', 'send']);
    const r = await run(['posts', 'create', '--platform', 'linkedin', '-q'], { tty: true, prompter, env });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked[0]).toBe('Text for linkedin (Enter alone: write it in your editor)');
    // A new text opens with the platform's limit in comments, as posts edit --editor shows it.
    expect(openedWith()).toEqual(['// The text for linkedin. Lines starting with // are ignored;\n// save and quit to use it, or empty the file to give up.\n// linkedin: at most 3000 characters; now 0\n']);
    expect(await sentText(r.stdout.trim(), 'linkedin')).toBe(LETTER);
  });

  it('an editor text over the limit is shown with the reason and opened again', async () => {
    const env = scriptEditor(['y'.repeat(301), 'short now']);
    const prompter = new ScriptedPrompter(['', '', 'send']);
    const r = await run(['posts', 'create', '--platform', 'bluesky', '-q'], { tty: true, prompter, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/301 characters is 1 over bluesky's limit of 300.*opening the editor again/);
    expect(openedWith().map((f) => f.split('\n').filter((l) => !l.startsWith('//')).join('\n'))).toEqual(['', 'y'.repeat(301)]);
    expect(openedWith()[1]).toContain('// bluesky: at most 300 characters; now 301\n');
    expect(await sentText(r.stdout.trim(), 'bluesky')).toBe('short now');
  });

  it('Edit goes back to one value, keeps the others, and shows the summary again', async () => {
    const env = scriptEditor(['Second thoughts.\n\nBetter text.']);
    const prompter = new ScriptedPrompter(['First text', '', 'edit', 'text', 'send']);
    const r = await run(['posts', 'create', '--platform', 'bluesky', '--title', 'Launch', '-q'], { tty: true, prompter, env });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked).toEqual([
      'Text for bluesky (Enter alone: write it in your editor)',
      'Media files or URLs, comma-separated (empty for none)',
      'Send it?',
      'Change what?',
      'Send it?',
    ]);
    expect(openedWith().map((f) => f.split('\n').filter((l) => !l.startsWith('//')).join('\n'))).toEqual(['First text']);
    expect(r.stderr.split('This will be sent').length).toBe(3);
    const post = (await allPosts(sb)).find((p) => p.id === r.stdout.trim());
    expect(post?.title).toBe('Launch');
    expect((post?.payloads.bluesky as { text: string }).text).toBe('Second thoughts.\n\nBetter text.');
  });

  it('Edit of the time keeps the post; Cancel sends nothing and exits 0 with nothing on stdout', async () => {
    const before = sb.requests.length;
    const prompter = new ScriptedPrompter(['+2h', 'edit', 'time', '+3h', 'cancel']);
    const r = await run(['posts', 'schedule', '--platform', 'bluesky', '--text', 'Hello'], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked).toEqual([expect.stringMatching(/^When\?/), 'Send it?', 'Change what?', expect.stringMatching(/^When\?/), 'Send it?']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('cancelled: nothing was sent');
    expect(r.stderr).toMatch(/in 3 hours/);
    // Only the one read that names each platform's account in the confirmation.
    expect(sb.requests.slice(before).map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/social-accounts']);
  });

  it('scheduling an existing draft shows its texts and title in the summary', async () => {
    const draft = await run(['posts', 'create', '--platform', 'bluesky,linkedin', '--text', 'The draft as written', '--title', 'Draft title', '-q']);
    const id = draft.stdout.trim();
    const prompter = new ScriptedPrompter(['+2h', 'cancel']);
    const r = await run(['posts', 'schedule', id], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`post\\s+${id} \\(a draft, as it is\\)`));
    expect(r.stderr).toMatch(/text\s+bluesky\s+"The draft as written"/);
    expect(r.stderr).toMatch(/linkedin\s+"The draft as written"/);
    expect(r.stderr).toMatch(/title\s+"Draft title"/);
    expect(r.stderr).toMatch(/when\s+.* · in 2 hours/);
  });

  it.each([60, 80, 120])('the summary fits %i columns with CJK and emoji texts', async (columns) => {
    const text = '今日は新しい機能を発表します。皆さんのご意見をお待ちしております 🎉🎉 '.repeat(3);
    const prompter = new ScriptedPrompter(['+1d', 'cancel']);
    const r = await run(['posts', 'schedule', '--platform', 'bluesky,threads', '--text', text, '--title', 'タイトル'.repeat(20)], { tty: true, prompter, columns });
    expect(r.code, r.stderr).toBe(0);
    const summary = r.stderr.slice(r.stderr.indexOf('This will be sent'), r.stderr.indexOf('(the exact requests'));
    const lines = summary.split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(columns);
    // At 60 columns the text goes on its own line under its count.
    expect(summary).toMatch(/bluesky\s+\d+ of 300 (?:characters|chars)\s+"今日は新しい/);
    expect(summary).toContain('…"');
  });
});
