// The real inquirer prompts, in a child process whose environment asks for colour (FORCE_COLOR=1,
// as a colour terminal would): with colour turned off by the program (--no-color, CLICOLOR=0,
// TERM=dumb), a prompt prints no colour codes; with it on, the same prompt does.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yesOrNo } from '../../src/cli/prompter.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-prompter-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const bundle = join(tmp, 'prompt-entry.mjs');

beforeAll(async () => {
  const entry = join(tmp, 'prompt-entry.ts');
  writeFileSync(
    entry,
    `import { PassThrough } from 'node:stream';
     import { inquirerPrompter } from ${JSON.stringify(join(process.cwd(), 'src/cli/prompter.ts'))};
     // One prompter per prompt, as one command asks: what it shows, and the answer to the keys typed.
     async function ask(keys, prompt, columns) {
       const stdin = new PassThrough();
       const stderr = new PassThrough();
       if (columns) stderr.columns = columns;
       let shown = '';
       stderr.on('data', (chunk) => (shown += chunk));
       const prompter = inquirerPrompter({ stdin, stdout: new PassThrough(), stderr }, { color: process.env.PROMPT_COLOR === '1' });
       // Typed a line at a time, as a person would (keys typed while an answer is checked are lost).
       [].concat(keys).forEach((line, i) => setTimeout(() => stdin.write(line), 50 * (i + 1)));
       const answer = await prompt(prompter);
       await new Promise((resolve) => setImmediate(resolve));
       return { answer, shown };
     }
     const confirm = await ask('n\\n', (p) => p.confirm({ message: 'Delete this post? This cannot be undone', default: false }));
     // "cancel" is no answer to a yes/no question: asked again, then n (the default here is Yes).
     const offWord = await ask('cancel\\n', (p) => Promise.race([p.confirm({ message: 'Send these changes?', default: true }), new Promise((r) => setTimeout(() => r('still asking'), 400))]));
     const thenNo = await ask(['cancel\\n', 'n\\n'], (p) => p.confirm({ message: 'Send these changes?', default: true }));
     const byDefault = await ask('\\n', (p) => p.confirm({ message: 'Send these changes?', default: true }));
     const checkbox = await ask(' \\n', (p) => p.checkbox({ message: 'Platforms to post to', choices: [{ name: 'bluesky', value: 'bluesky' }, { name: 'threads', value: 'threads' }] }));
     // A choice naming what a service sent (an account's handle), escapes and all.
     const evil = '@brand\\u001b[2J\\u001b]0;pwned\\u0007\\r\\n::warning::forged\\u202eevil';
     const hostile = await ask('\\n', (p) => p.select({ message: 'Publish to which?', choices: [{ name: 'linkedin:' + evil, value: 'acc_1', short: evil }, { name: 'linkedin:@other', value: 'acc_2' }] }));
     // Two choices each wider than a 60-column terminal: both in view, the second picked.
     const wide = await ask('\\u001b[B\\n', (p) => p.select({ message: 'Publish to which?', choices: [{ name: 'linkedin:@socialpub-demo (Socialpub Demo) · acc_1GK2ZU4fShJG', value: 'acc_1' }, { name: 'linkedin:@socialpub-demo-careers (Socialpub Demo Careers) · acc_1z0hvf3tk2NG', value: 'acc_2' }] }), 60);
     process.stdout.write(JSON.stringify({ wide: wide.answer, wideShown: wide.shown, hostile: hostile.answer, hostileShown: hostile.shown, answer: confirm.answer, offWord: offWord.answer, thenNo: thenNo.answer, byDefault: byDefault.answer, retold: thenNo.shown, picked: checkbox.answer, shown: confirm.shown + checkbox.shown }));
     process.exit(0);`,
  );
  // Inquirer's colour library is CommonJS and requires node:tty: the ESM bundle gets a require.
  const banner = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile: bundle, logLevel: 'silent', banner: { js: banner } });
});

const run = (color: boolean) => JSON.parse(execFileSync(process.execPath, [bundle], { env: { PATH: process.env.PATH ?? '', FORCE_COLOR: '1', PROMPT_COLOR: color ? '1' : '0' }, timeout: 20_000 }).toString()) as { wide: string; wideShown: string; hostile: string; hostileShown: string; answer: boolean; offWord: unknown; thenNo: boolean; byDefault: boolean; retold: string; picked: string[]; shown: string };
const SGR = /\u001b\[[0-9;]*m/;

describe('yesOrNo', () => {
  it('reads y, yes, n, no in any case and nothing as the default; anything else is no answer', () => {
    expect([yesOrNo('Y', false), yesOrNo(' yes ', false), yesOrNo('N', true), yesOrNo('no', true)]).toEqual([true, true, false, false]);
    expect([yesOrNo('', true), yesOrNo('', undefined), yesOrNo('  ', false)]).toEqual([true, true, false]);
    expect([yesOrNo('cancel', true), yesOrNo('yep', true), yesOrNo('nope', false), yesOrNo('q', true)]).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('prompts and colour', () => {
  it('colour off: the prompt is plain, with the same marks and words', () => {
    const plain = run(false);
    expect(plain.answer).toBe(false);
    expect(plain.picked).toEqual(['bluesky']);
    expect(plain.shown).toContain('? Delete this post? This cannot be undone (y/N)');
    expect(plain.shown).toContain('✔ Delete this post? This cannot be undone No');
    expect(plain.shown).toContain('✔ Platforms to post to bluesky');
    expect(plain.shown).not.toMatch(SGR);
  });

  it('a yes/no question takes only yes or no: another word is asked again, not read as the default', () => {
    const plain = run(false);
    expect(plain.offWord).toBe('still asking');
    expect(plain.thenNo).toBe(false);
    expect(plain.retold).toContain('> Answer y (yes) or n (no), or Enter for yes');
    expect(plain.retold).toContain('✔ Send these changes? No');
    expect(plain.byDefault).toBe(true);
  });

  it("a choice's control characters are shown, not obeyed, and a line break in one stays on its row", () => {
    const { hostile, hostileShown } = run(false);
    expect(hostile).toBe('acc_1');
    // Inquirer moves the cursor with escapes of its own; none of the service's reaches the terminal.
    for (const raw of ['\u001b[2J', '\u001b]0;pwned', '\u0007', '\u202e', '\n::warning']) expect(hostileShown).not.toContain(raw);
    expect(hostileShown).toContain('linkedin:@brand\\u001b[2J\\u001b]0;pwned\\u0007\\n::warning::forged\\u202eevil');
    // The answer echoed once chosen (its short form) is shown the same way.
    expect(hostileShown).toMatch(/✔ Publish to which\?\s+@brand\\u001b\[2J/);
  });

  it('choices that wrap on a narrow terminal are all in view (the page is counted in lines, not choices)', () => {
    const { wide, wideShown } = run(false);
    expect(wide).toBe('acc_2');
    // Before the first keypress, the second account is on the screen.
    const first = wideShown.slice(0, wideShown.indexOf('↑↓'));
    expect(first).toContain('socialpub-demo-careers');
  });

  it('colour on: inquirer colours it as usual (so the plain run above is not plain by accident)', () => {
    expect(run(true).shown).toMatch(SGR);
  });
});
