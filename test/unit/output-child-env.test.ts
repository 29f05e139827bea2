// Programs we start for the user (the pager, the browser command) get our environment without
// our secrets: each is a tiny script here that writes the environment it was given to a file.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openInBrowser } from '../../src/output/browser.js';
import { startPager } from '../../src/output/pager.js';
import { captureStream } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'child-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Writes { env, args, stdin } to the file named by its first argument. As a pager (no further
// arguments) it reads stdin to the end first; as a browser (the URL follows) it does not.
const script = join(dir, 'record-env.cjs');
writeFileSync(
  script,
  `const [out, ...args] = process.argv.slice(2);
const record = (stdin) => require('node:fs').writeFileSync(out, JSON.stringify({ env: process.env, args, stdin }));
if (args.length > 0) record('');
else {
  const chunks = [];
  process.stdin.on('data', (c) => chunks.push(c));
  process.stdin.on('end', () => record(Buffer.concat(chunks).toString()));
}`,
);

const SECRETS = { SOCIALPUB_API_KEY: 'sk_live_0123456789abcdef', SOCIALPUB_WEBHOOK_SECRET: 'whsec_c2VjcmV0c2VjcmV0' };

interface Recorded {
  env: Record<string, string>;
  args: string[];
  stdin: string;
}

describe('child processes get no secrets', () => {
  it('the pager: its environment lacks SOCIALPUB_API_KEY and SOCIALPUB_WEBHOOK_SECRET, keeps the rest', async () => {
    const out = join(dir, 'pager.json');
    const env = { PATH: process.env.PATH, SOCIALPUB_PROFILE: 'work', ...SECRETS, PAGER: `${process.execPath} ${script} ${out}` };
    const pager = startPager({ env, stdoutIsTTY: true, stdout: captureStream(true) });
    expect(pager.paging).toBe(true);
    pager.sink.write('a line\n');
    await pager.close();
    const got = JSON.parse(readFileSync(out, 'utf8')) as Recorded;
    expect(got.stdin).toBe('a line\n');
    expect(got.env).not.toHaveProperty('SOCIALPUB_API_KEY');
    expect(got.env).not.toHaveProperty('SOCIALPUB_WEBHOOK_SECRET');
    expect(got.env).toMatchObject({ SOCIALPUB_PROFILE: 'work', LESS: 'FRX' });
    // The caller's environment object is left as it was.
    expect(env.SOCIALPUB_API_KEY).toBe(SECRETS.SOCIALPUB_API_KEY);
  });

  it('the browser command: the same', async () => {
    const out = join(dir, 'browser.json');
    const env = { PATH: process.env.PATH, SOCIALPUB_PROFILE: 'work', ...SECRETS, SOCIALPUB_BROWSER: `${process.execPath} ${script} ${out}` };
    expect(await openInBrowser({ env, url: 'https://bsky.app/profile/x' })).toBe(true);
    const got = JSON.parse(readFileSync(out, 'utf8')) as Recorded;
    expect(got.args).toEqual(['https://bsky.app/profile/x']);
    expect(got.env).not.toHaveProperty('SOCIALPUB_API_KEY');
    expect(got.env).not.toHaveProperty('SOCIALPUB_WEBHOOK_SECRET');
    expect(got.env).toMatchObject({ SOCIALPUB_PROFILE: 'work' });
  });
});
