// The confirmation of `posts edit` shows where the texts differ, whatever their length (a change
// at the end of a 463-character text showed before and after cut at the same point, identical),
// and `posts edit --text-file` takes the text from a file or stdin as every payload command does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../src/wire/schemas.js';
import { displayWidth } from '../../src/output/width.js';
import { runCli } from '../helpers/run-cli.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { cliEnv, manualSandbox, oracleGet, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
const dir = mkdtempSync(join(tmpdir(), 'posts-edit-diff-'));
beforeAll(async () => {
  sb = await manualSandbox();
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (argv: string[], options: Parameters<typeof runCli>[1] = {}) => runCli(argv, { clock: sandboxClock(sb.clock), ...options, env: { ...cliEnv(sb), ...options.env } });
const getPost = (id: string) => oracleGet<Post>(sb, `/v1/posts/${id}`);

async function draft(text: string): Promise<Post> {
  const r = await cli(['posts', 'create', '--platform', 'linkedin', '--text', text, '--json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Post;
}

const LONG = `${'Plan the week, write the posts, check them against every platform, schedule them, watch the results come in. '.repeat(4)}Measure, learn, then repeat`;

describe('posts edit: the confirmation', () => {
  it('a change at the end of a long text is shown marked, [-old-]{+new+}, at 60 and 120 columns without colour', async () => {
    expect(LONG.length).toBeGreaterThan(400);
    const p = await draft(LONG);
    for (const columns of [60, 120]) {
      const r = await cli(['posts', 'edit', p.id, '--text', LONG.replace(/repeat$/, 'iterate')], { tty: true, columns, prompter: new ScriptedPrompter([false]), env: { NO_COLOR: '1' } });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^ {4}change … /m);
      expect(r.stderr.replace(/\s+/g, ' ')).toContain('Measure, learn, then [-repeat-]{+iterate+}');
      for (const line of r.stderr.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
    }
    expect((await getPost(p.id)).payloads).toEqual(p.payloads);
  });

  it('with colour, the removed word is red and the added green', async () => {
    const p = await draft(LONG);
    const r = await cli(['posts', 'edit', p.id, '--text', LONG.replace(/repeat$/, 'iterate')], { tty: true, columns: 80, prompter: new ScriptedPrompter([false]), env: { FORCE_COLOR: '1' } });
    expect(r.stderr).toContain('\u001b[31mrepeat\u001b[39m');
    expect(r.stderr).toContain('\u001b[32miterate\u001b[39m');
  });
});

describe('posts edit --text-file', () => {
  it('takes the new text from a file (paragraphs kept) and from stdin', async () => {
    const p = await draft('First version');
    const file = join(dir, 'text.txt');
    writeFileSync(file, 'Second version\n\nwith a paragraph\n');
    const r = await cli(['posts', 'edit', p.id, '--text-file', file, '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect((await getPost(p.id)).payloads.linkedin).toMatchObject({ text: 'Second version\n\nwith a paragraph' });
    const piped = await cli(['posts', 'edit', p.id, '--text-file', '-', '--json'], { stdin: 'Third version' });
    expect(piped.code).toBe(0);
    expect((await getPost(p.id)).payloads.linkedin).toMatchObject({ text: 'Third version' });
  });

  it('refuses --text with --text-file, and a missing file, before any request (exit 2)', async () => {
    const p = await draft('Stays');
    const both = await cli(['posts', 'edit', p.id, '--text', 'a', '--text-file', join(dir, 'text.txt')]);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('--text-file cannot be combined with --text')]);
    const missing = await cli(['posts', 'edit', p.id, '--text-file', join(dir, 'nope.txt')]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('no such file')]);
    expect((await getPost(p.id)).payloads.linkedin).toMatchObject({ text: 'Stays' });
  });
});
