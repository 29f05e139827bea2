// The pager with real child processes as pagers, and once under a real pty (`script`).
import { execFileSync, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { pagerCommand, pagerWhenLong, startPager } from '../../src/output/pager.js';
import { createOutput } from '../../src/output/output.js';
import { ndjsonWriter } from '../../src/output/writers.js';
import { captureStream } from '../helpers/run-cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-pager-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const node = process.execPath;

// A pager that reads N lines, records them and what LESS was, then quits (like `q`).
const quitter = join(tmp, 'quitter.mjs');
writeFileSync(
  quitter,
  `import { createInterface } from 'node:readline';
   import { writeFileSync } from 'node:fs';
   const [out, n] = process.argv.slice(2);
   const lines = [];
   const rl = createInterface({ input: process.stdin });
   rl.on('line', (l) => { lines.push(l); if (lines.length === Number(n)) { writeFileSync(out, JSON.stringify({ lines, LESS: process.env.LESS, LV: process.env.LV })); process.exit(0); } });
   rl.on('close', () => { writeFileSync(out, JSON.stringify({ lines, LESS: process.env.LESS, LV: process.env.LV, all: true })); process.exit(0); });`,
);

describe('which pager', () => {
  it.each([
    [{}, 'less -FRX'],
    [{ PAGER: 'more' }, 'more'],
    [{ PAGER: 'more', SOCIALPUB_PAGER: 'less -S' }, 'less -S'],
    [{ PAGER: 'more', SOCIALPUB_PAGER: '' }, undefined],
    [{ PAGER: '' }, undefined],
    [{ PAGER: 'cat' }, undefined],
    [{ SOCIALPUB_PAGER: ' cat ' }, undefined],
  ])('%j → %s', (env, command) => {
    expect(pagerCommand(env)).toBe(command);
  });

  it('never when stdout is not a terminal or with --no-pager: output goes to stdout', async () => {
    for (const opts of [{ stdoutIsTTY: false }, { stdoutIsTTY: true, noPager: true }]) {
      const stdout = captureStream(true);
      const pager = startPager({ env: { PAGER: `${node} ${quitter} /dev/null 1` }, stdout, ...opts });
      expect(pager.paging).toBe(false);
      expect(pager.sink).toBe(stdout);
      await pager.close();
    }
  });
});

describe('paging through a real child process', () => {
  it('passes all data through stdin only, with LESS=FRX and LV=-c by default', async () => {
    const out = join(tmp, 'all.json');
    const pager = startPager({ env: { PATH: process.env.PATH, PAGER: `${node} ${quitter} ${out} 1000000` }, stdoutIsTTY: true, stdout: captureStream(true, 77) });
    expect(pager.paging).toBe(true);
    expect(pager.sink.columns).toBe(77);
    const w = ndjsonWriter(pager.sink);
    for (let i = 0; i < 500; i++) await w.write({ i });
    await pager.close();
    const seen = JSON.parse(readFileSync(out, 'utf8'));
    expect(seen.all).toBe(true);
    expect(seen.lines).toHaveLength(500);
    expect(seen.lines[499]).toBe('{"i":499}');
    expect([seen.LESS, seen.LV]).toEqual(['FRX', '-c']);
    expect(pager.signal.aborted).toBe(true);
  });

  it('a user who quits early (EPIPE) is not an error, and a writer waiting for drain is released', async () => {
    const out = join(tmp, 'early.json');
    const pager = startPager({ env: { PATH: process.env.PATH, LESS: 'S', PAGER: `${node} ${quitter} ${out} 3` }, stdoutIsTTY: true, stdout: captureStream(true) });
    const w = ndjsonWriter(pager.sink);
    const big = 'x'.repeat(10_000);
    // Far more than a pipe holds: the writer must wait for drain, and the pager quits meanwhile.
    for (let i = 0; i < 2000 && !pager.signal.aborted; i++) await w.write({ i, big });
    await pager.close();
    const seen = JSON.parse(readFileSync(out, 'utf8'));
    expect(seen.lines).toHaveLength(3);
    expect(seen.LESS).toBe('S');
    expect(pager.signal.aborted).toBe(true);
    expect(w.count).toBeLessThan(2000);
    // Writes after the pager left are dropped quietly.
    expect(pager.sink.write('more\n')).toBe(true);
  });

  it('Ctrl-C stops producing, ends the input and waits for the pager', async () => {
    const out = join(tmp, 'sigint.json');
    const signals = new EventEmitter();
    const pager = startPager({ env: { PATH: process.env.PATH, PAGER: `${node} ${quitter} ${out} 1000000` }, stdoutIsTTY: true, stdout: captureStream(true), signals: signals as never });
    const w = ndjsonWriter(pager.sink);
    await w.write({ i: 0 });
    expect(signals.listenerCount('SIGINT')).toBe(1);
    signals.emit('SIGINT');
    expect(pager.signal.aborted).toBe(true);
    expect(pager.interrupted).toBe(true);
    await pager.close();
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ lines: ['{"i":0}'], all: true });
    expect(signals.listenerCount('SIGINT')).toBe(0);
  });
});

describe('the pager starts only for output taller than the screen', () => {
  const tty = (rows: number) => Object.assign(captureStream(true, 80), { rows });
  const lines = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `line ${from + i}\n`).join('');

  it('output that fits goes to stdout when the listing is complete, and no pager is started', async () => {
    const out = join(tmp, 'never.json');
    const stdout = tty(10);
    const pager = pagerWhenLong({ env: { PATH: process.env.PATH, PAGER: `${node} ${quitter} ${out} 1000000` }, stdoutIsTTY: true, stdout, rows: 10 });
    expect(pager.sink.write(lines(8))).toBe(true);
    expect(stdout.text()).toBe('');
    await pager.flush();
    expect(stdout.text()).toBe(lines(8));
    await pager.close();
    expect(pager.paging).toBe(false);
    expect(existsSync(out)).toBe(false);
  });

  it('output taller than the screen all goes to the pager, the held lines first', async () => {
    const out = join(tmp, 'tall.json');
    const stdout = tty(10);
    const pager = pagerWhenLong({ env: { PATH: process.env.PATH, PAGER: `${node} ${quitter} ${out} 1000000` }, stdoutIsTTY: true, stdout, rows: 10 });
    pager.sink.write(lines(5));
    expect(pager.paging).toBe(false);
    pager.sink.write(lines(5, 5));
    expect(pager.paging).toBe(true);
    await pager.close();
    expect(stdout.text()).toBe('');
    expect(JSON.parse(readFileSync(out, 'utf8')).lines).toEqual(lines(10).trimEnd().split('\n'));
  });

  it('a short table is followed by the notes written after it; a long one carries them and its footer into the pager', async () => {
    const view = { kind: 'table' as const, columns: [{ header: 'id', value: (r: { id: string }) => r.id }] };
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `res_${i}` }));
    const run = async (n: number, out: string) => {
      const stdout = tty(12);
      const stderr = captureStream(true, 80);
      const output = createOutput({ stdout, stderr, format: 'table', pageable: true, env: { PATH: process.env.PATH, PAGER: `${node} ${quitter} ${out} 1000000` } });
      await output.list(rows(n), view);
      output.notice('✗ bluesky: MEDIA_REJECTED');
      output.footer('showing 1–N');
      await output.close();
      return { stdout: stdout.text(), stderr: stderr.text() };
    };
    const shortOut = join(tmp, 'short-table.json');
    const short = await run(3, shortOut);
    expect(short.stdout).toBe('ID\nres_0\nres_1\nres_2\n');
    expect(short.stderr).toBe('✗ bluesky: MEDIA_REJECTED\nshowing 1–N\n');
    expect(existsSync(shortOut)).toBe(false);
    // Paging turned off by PAGER=cat: the footer still goes to stderr, not into the data.
    const stdout = tty(12);
    const stderr = captureStream(true, 80);
    const cat = createOutput({ stdout, stderr, format: 'table', pageable: true, env: { PAGER: 'cat' } });
    await cat.list(rows(30), view);
    cat.footer('showing 1–N');
    await cat.close();
    expect(stdout.text()).not.toContain('showing');
    expect(stderr.text()).toBe('showing 1–N\n');
    const longOut = join(tmp, 'long-table.json');
    const long = await run(30, longOut);
    expect(long.stdout + long.stderr).toBe('');
    const paged = JSON.parse(readFileSync(longOut, 'utf8')).lines as string[];
    expect(paged).toHaveLength(1 + 30 + 2);
    expect(paged.slice(-2)).toEqual(['✗ bluesky: MEDIA_REJECTED', 'showing 1–N']);
  });
});

describe('a long human rendering of one object (a week of the queue, a long post)', () => {
  const tty = (rows: number) => Object.assign(captureStream(true, 80), { rows });
  const week = (n: number) => Array.from({ length: n }, (_, i) => `  ${String(i).padStart(2, '0')}:00  bluesky  tip #${i}`).join('\n');
  const run = async (n: number, out: string, pageable: boolean | undefined) => {
    const stdout = tty(12);
    const stderr = captureStream(true, 80);
    const output = createOutput({ stdout, stderr, format: 'table', pageable: true, env: { PATH: process.env.PATH, PAGER: `${node} ${quitter} ${out} 1000000` } });
    await output.object({ n }, () => week(n), pageable === undefined ? {} : { pageable });
    output.footer('32 scheduled');
    await output.close();
    return { stdout: stdout.text(), stderr: stderr.text() };
  };

  it('goes through the pager when taller than the screen and the command says it may', async () => {
    const longOut = join(tmp, 'long-object.json');
    const long = await run(30, longOut, true);
    expect(long.stdout + long.stderr).toBe('');
    const paged = JSON.parse(readFileSync(longOut, 'utf8')).lines as string[];
    expect(paged).toHaveLength(30 + 1);
    expect(paged.at(-1)).toBe('32 scheduled');
  });

  it('a short one is written straight to the terminal, and one the command does not mark never pages', async () => {
    const shortOut = join(tmp, 'short-object.json');
    const short = await run(3, shortOut, true);
    expect(short.stdout).toBe(week(3) + '\n');
    expect(existsSync(shortOut)).toBe(false);
    const plainOut = join(tmp, 'plain-object.json');
    const plain = await run(30, plainOut, undefined);
    expect(plain.stdout).toBe(week(30) + '\n');
    expect(existsSync(plainOut)).toBe(false);
  });
});

const hasScript = existsSync('/usr/bin/script') && spawnSync('script', ['-qec', 'true', '/dev/null']).status === 0;

describe.skipIf(!hasScript)('under a real terminal (script from util-linux)', () => {
  it('pages through less-like pagers on a pty, and a quit pager ends the command with exit 0', async () => {
    const entry = join(tmp, 'pty-entry.ts');
    writeFileSync(
      entry,
      `import { startPager } from ${JSON.stringify(join(process.cwd(), 'src/output/pager.ts'))};
       const pager = startPager({ env: process.env, stdoutIsTTY: Boolean(process.stdout.isTTY), stdout: process.stdout });
       process.stderr.write('paging=' + pager.paging + '\\n');
       for (let i = 0; i < Number(process.env.COUNT ?? 100000) && !pager.signal.aborted; i++) {
         if (!pager.sink.write('line ' + i + '\\n')) await new Promise((r) => pager.sink.once('drain', r));
       }
       await pager.close();
       process.stderr.write('done\\n');`,
    );
    await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile: join(tmp, 'pty-entry.mjs'), logLevel: 'silent' });
    const out = join(tmp, 'pty.json');
    const env = { PATH: process.env.PATH ?? '', PAGER: `${node} ${quitter} ${out} 5`, TERM: 'xterm' };
    const transcript = execFileSync('script', ['-qec', `${node} ${join(tmp, 'pty-entry.mjs')}`, '/dev/null'], { env, timeout: 20_000 }).toString();
    expect(transcript).toContain('paging=true');
    expect(transcript).toContain('done');
    expect(transcript).not.toMatch(/EPIPE|Error/);
    expect(JSON.parse(readFileSync(out, 'utf8')).lines).toEqual(['line 0', 'line 1', 'line 2', 'line 3', 'line 4']);

    // The default, real less -FRX: output that fits one screen is shown and less quits by itself.
    if (existsSync('/usr/bin/less')) {
      const shown = execFileSync('script', ['-qec', `stty rows 24 cols 80; ${node} ${join(tmp, 'pty-entry.mjs')}`, '/dev/null'], { env: { PATH: env.PATH, TERM: 'xterm', COUNT: '3' }, timeout: 20_000 }).toString();
      expect(shown).toContain('paging=true');
      expect(shown).toMatch(/line 0[^]*line 1[^]*line 2[^]*done/);
    }
  });
});
