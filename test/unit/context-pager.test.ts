// An error after a table went to the pager: the context makes a new output to report it, and the
// pager of the first must still get the end of its input, or the command waits on it for ever
// (seen as `results wait` hanging on a terminal after "timed out").
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext, DEFAULT_GLOBALS } from '../../src/cli/create-context.js';
import { captureStream } from '../helpers/run-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-context-pager-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// A pager that records the lines it read once its input ends, then exits.
const pager = join(tmp, 'pager.mjs');
writeFileSync(
  pager,
  `import { writeFileSync } from 'node:fs';
   let text = '';
   process.stdin.on('data', (c) => (text += c));
   process.stdin.on('end', () => { writeFileSync(process.argv[2], text); process.exit(0); });`,
);

describe('the context at exit', () => {
  it('closes the pager of an output replaced to report an error', async () => {
    const seen = join(tmp, 'seen.txt');
    const ctx = createContext({
      io: { stdout: captureStream(true), stderr: captureStream(true), stdin: Readable.from([]), pageable: true },
      env: { PATH: process.env.PATH, PAGER: `${process.execPath} ${pager} ${seen}` },
      clock: { now: () => 0, sleep: async () => {} },
      signal: new AbortController().signal,
      version: '0.0.0',
      keyring: null,
    });
    ctx.globals = { ...DEFAULT_GLOBALS, format: 'table', pager: true };
    await ctx.prepare();
    await ctx.output().list([{ id: 'res_1' }], { kind: 'table', columns: [{ header: 'id', value: (r: { id: string }) => r.id }] });
    await ctx.prepare({ forError: true });
    await ctx.runExitHooks();
    expect(existsSync(seen)).toBe(true);
    expect(readFileSync(seen, 'utf8')).toContain('res_1');
  });
});
