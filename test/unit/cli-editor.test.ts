// editText: the temp file is private (0600 in a 0700 folder, removed afterwards), the editor gets
// the path as one argument whatever it holds, never sees the key or the webhook secret, and a
// failing editor gives undefined. The editor is a tiny node script standing in for $EDITOR.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editText, editorCommand } from '../../src/cli/editor.js';
import type { Context } from '../../src/cli/context.js';

const dir = mkdtempSync(join(tmpdir(), 'editor-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const report = join(dir, 'report.json');
const script = join(dir, 'editor.mjs');
writeFileSync(
  script,
  `import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
const path = process.argv[2];
writeFileSync(${JSON.stringify(report)}, JSON.stringify({ args: process.argv.slice(2), mode: statSync(path).mode & 0o777, dirMode: statSync(dirname(path)).mode & 0o777, text: readFileSync(path, 'utf8'), key: process.env.SOCIALPUB_API_KEY ?? null, secret: process.env.SOCIALPUB_WEBHOOK_SECRET ?? null, other: process.env.KEEP ?? null }));
writeFileSync(path, 'edited: ' + readFileSync(path, 'utf8'));
`,
);

const ctxWith = (env: Record<string, string>, signal = new AbortController().signal) => ({ env: { PATH: process.env.PATH, ...env }, signal }) as unknown as Context;

describe('editText', () => {
  it('edits a private temp file passed as one argument, without the key and the secret', async () => {
    const ctx = ctxWith({ EDITOR: `"${process.execPath}" "${script}"`, SOCIALPUB_API_KEY: 'sk_test_secret', SOCIALPUB_WEBHOOK_SECRET: 'whsec_x', KEEP: 'yes' });
    const out = await editText(ctx, 'hello $(touch pwned) `x`', { suffix: '.txt; rm -rf /' });
    expect(out).toBe('edited: hello $(touch pwned) `x`');
    const seen = JSON.parse(readFileSync(report, 'utf8'));
    expect(seen.args).toHaveLength(1);
    expect(seen.args[0]).toMatch(/socialpub-edit-[^/]+\/post\.txtrm-rf$/);
    expect([seen.mode, seen.dirMode]).toEqual([0o600, 0o700]);
    expect([seen.key, seen.secret, seen.other]).toEqual([null, null, 'yes']);
    expect(existsSync(seen.args[0])).toBe(false);
  });

  it('rejects naming the editor and how it ended when it fails, cannot start or is killed', async () => {
    const failed = (editor: string) => editText(ctxWith({ EDITOR: editor }), 'x', { suffix: '.txt' });
    await expect(failed('false')).rejects.toMatchObject({ name: 'EditorFailedError', exitCode: 1, message: 'the editor (false) exited with status 1: nothing was changed' });
    await expect(failed('exit 42; true')).rejects.toMatchObject({ reason: 'the editor (exit 42; true) exited with status 42' });
    await expect(failed('no-such-editor-here')).rejects.toMatchObject({ reason: 'the editor (no-such-editor-here) exited with status 127 (the shell found no such command)' });
    await expect(failed('kill -TERM $$; true')).rejects.toMatchObject({ reason: 'the editor (kill -TERM $$; true) was stopped by SIGTERM' });
  });

  it('rejects as interrupted when Ctrl-C reached the program while the editor ran, whatever the editor did', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(editText(ctxWith({ EDITOR: 'true' }, stop.signal), 'x', { suffix: '.txt' })).rejects.toMatchObject({ name: 'AbortError' });
    await expect(editText(ctxWith({ EDITOR: 'false' }, stop.signal), 'x', { suffix: '.txt' })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('prefers $VISUAL, then $EDITOR, then vi', () => {
    expect(editorCommand({ VISUAL: 'code --wait', EDITOR: 'nano' })).toBe('code --wait');
    expect(editorCommand({ EDITOR: 'nano' })).toBe('nano');
    expect(editorCommand({ VISUAL: ' ' })).toBe('vi');
  });
});
