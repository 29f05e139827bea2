// The outputs bin/socialpub.js prints without loading the program (dist/prerendered, written by
// the build) are exactly what the program prints: for every command's help, the help topics,
// the completion scripts and the version. Fails when they are stale (run `npm run build`).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { prerender, prerenderArgvs, prerenderFile, PRERENDER_COLUMNS, type Prerendered } from '../../scripts/prerender.js';
import { VERSION } from '../../src/version.js';
import { runCli } from '../helpers/run-cli.js';
import { BIN, ensureBuilt, ROOT } from './ensure-built.js';

const DIR = join(ROOT, 'dist', 'prerendered');

describe('pre-rendered outputs', () => {
  let expected: Prerendered[];
  beforeAll(async () => {
    await ensureBuilt();
    expected = await prerender(VERSION);
  }, 60_000);

  it('cover the help of every command, the topics, the completions and the version', async () => {
    const paths = expected.filter((p) => p.argv.at(-1) === '--help').map((p) => p.argv.slice(0, -1).join(' '));
    expect(paths).toEqual(expect.arrayContaining(['', 'posts', 'posts create', 'results get', 'profile list', 'completion', 'help']));
    // Nothing a candidate could be was dropped: every setting agreed on every output.
    expect(expected.map((p) => p.argv.join(' '))).toEqual((await prerenderArgvs(VERSION)).map((c) => c.argv.join(' ')));
    expect(expected.map((p) => p.argv.join(' '))).toEqual(expect.arrayContaining(['help environment', 'completion bash', '--version']));
  });

  it('in dist/ are what the source prints now (run `npm run build` if this fails)', () => {
    const built = readdirSync(DIR).flatMap((kind) => readdirSync(join(DIR, kind)).map((file) => `${kind}/${file}`)).sort();
    expect(built).toEqual(expected.map((p) => `${p.kind}/${prerenderFile(p.argv)}`).sort());
    for (const p of expected) expect(readFileSync(join(DIR, p.kind, prerenderFile(p.argv)), 'utf8'), p.argv.join(' ')).toBe(p.text);
  });

  it('equal what the program prints at 80 columns, piped and on a terminal', async () => {
    for (const p of expected) {
      const piped = await runCli(p.argv, { columns: PRERENDER_COLUMNS });
      expect(piped.stdout, p.argv.join(' ')).toBe(p.text);
      expect(piped.code).toBe(0);
      if (p.kind !== 'help') continue;
      const terminal = await runCli(p.argv, { tty: true, columns: PRERENDER_COLUMNS });
      expect(terminal.stdout, `${p.argv.join(' ')} on a terminal`).toBe(p.text);
    }
  });

  it('are what the installed binary prints, and other argvs still reach the program', () => {
    const run = (argv: string[]) => execFileSync(process.execPath, [BIN, ...argv], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(run(['posts', 'schedule', '--help'])).toBe(readFileSync(join(DIR, 'help', 'posts schedule --help.txt'), 'utf8'));
    expect(run(['completion', 'bash'])).toBe(readFileSync(join(ROOT, 'completions', 'socialpub.bash'), 'utf8'));
    expect(run(['--version'])).toBe(`${VERSION}\n`);
    // Not pre-rendered (a flag before --help): the program answers, with the same help.
    expect(existsSync(join(DIR, 'help', 'posts --quiet --help.txt'))).toBe(false);
    expect(run(['posts', '--quiet', '--help'])).toBe(readFileSync(join(DIR, 'help', 'posts --help.txt'), 'utf8'));
  });
});
