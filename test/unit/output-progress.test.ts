import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { CLEAR_LINE, createProgressLine } from '../../src/output/progress.js';
import { tableWriter } from '../../src/output/writers.js';
import { plainColors } from '../../src/output/colors.js';

/** What a terminal shows for this output: \r returns, ESC[2K erases the line, \n moves down. */
function screen(output: string): string[] {
  const lines: string[] = [''];
  let col = 0;
  for (let i = 0; i < output.length; i++) {
    const row = lines.length - 1;
    if (output.startsWith('\u001b[2K', i)) {
      lines[row] = '';
      i += 3;
    } else if (output.startsWith('\u001b[', i)) {
      i += /^\u001b\[[0-?]*[ -/]*[@-~]/.exec(output.slice(i))![0].length - 1; // other CSI: no text
    } else if (output[i] === '\r') col = 0;
    else if (output[i] === '\n') {
      lines.push('');
      col = 0;
    } else {
      const line = lines[row]!;
      lines[row] = line.slice(0, col).padEnd(col) + output[i] + line.slice(col + 1);
      col++;
    }
  }
  return lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}

/** stdout and stderr writing to one shared terminal, as when both are the same tty. */
function sharedTerminal(columns = 80) {
  let all = '';
  const make = () => ({ isTTY: true, columns, write: (s: string) => ((all += s), true) });
  return { stdout: make(), stderr: make(), text: () => all };
}

describe('progress line', () => {
  it('is cleared before data and drawn again after it, so data lines are clean', async () => {
    const term = sharedTerminal();
    const progress = createProgressLine({ stderr: term.stderr, stdoutIsTTY: true });
    const w = tableWriter(progress.wrap(term.stdout), [{ header: 'row', value: (r: number) => `row ${r}` }], plainColors, 80, 1);
    for (let i = 1; i <= 3; i++) {
      progress.update(`${i - 1}/3 · scheduling row ${i} (line ${i + 30})`);
      await w.write(i);
    }
    progress.done('3 rows: 3 created');
    expect(screen(term.text())).toEqual(['ROW', 'row 1', 'row 2', 'row 3', '3 rows: 3 created']);
    expect(term.text()).toContain(CLEAR_LINE + '0/3 · scheduling row 1 (line 31)');
  });

  it('shows on stderr when stdout is redirected, without clearing for data it never sees', () => {
    const stderr = sharedTerminal().stderr;
    let err = '';
    stderr.write = (s: string) => ((err += s), true);
    let out = '';
    const progress = createProgressLine({ stderr, stdoutIsTTY: false });
    const stdout = { write: (s: string) => ((out += s), true) };
    const sink = progress.wrap(stdout);
    expect(sink).toBe(stdout);
    progress.update('1/300');
    sink.write('a\tb\n');
    progress.update('2/300');
    expect(err).toBe(`${CLEAR_LINE}1/300${CLEAR_LINE}2/300`);
    expect(out).toBe('a\tb\n');
  });

  it('is silent when stderr is not a terminal, but the summary is still printed', () => {
    let err = '';
    const progress = createProgressLine({ stderr: { write: (s: string) => ((err += s), true) }, stdoutIsTTY: false });
    progress.update('1/3');
    progress.log('warning: row 2 skipped');
    progress.done('3 rows');
    expect(err).toBe('warning: row 2 skipped\n3 rows\n');
  });

  it('a summary after Ctrl-C starts on a line of its own; long text is cut to the width', () => {
    const term = sharedTerminal(20);
    const progress = createProgressLine({ stderr: term.stderr, stdoutIsTTY: true });
    progress.update('199/300 · scheduling row 200 (line 230) 👩‍💻');
    term.stderr.write('^C'); // the terminal's echo of Ctrl-C
    progress.done('interrupted: 199 of 300 rows done');
    expect(screen(term.text())).toEqual(['interrupted: 199 of 300 rows done']);
    progress.update('ignored after done');
    expect(screen(term.text())).toEqual(['interrupted: 199 of 300 rows done']);
    const cut = createProgressLine({ stderr: term.stderr, stdoutIsTTY: true });
    cut.update('x'.repeat(50));
    expect(screen(term.text()).at(-1)).toBe('x'.repeat(18) + '…');
  });
});

const hasScript = existsSync('/usr/bin/script') && spawnSync('script', ['-qec', 'true', '/dev/null']).status === 0;

describe.skipIf(!hasScript)('progress on a real terminal (script from util-linux)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'socialpub-progress-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('data and summary come out clean on a pty; with stdout redirected progress still shows', async () => {
    const entry = join(tmp, 'entry.ts');
    writeFileSync(
      entry,
      `import { createProgressLine } from ${JSON.stringify(join(process.cwd(), 'src/output/progress.ts'))};
       const progress = createProgressLine({ stderr: process.stderr, stdoutIsTTY: Boolean(process.stdout.isTTY) });
       const out = progress.wrap(process.stdout);
       for (let i = 1; i <= 3; i++) { progress.update(i + '/3 working'); out.write('row ' + i + '\\n'); }
       progress.done('3 rows');`,
    );
    await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile: join(tmp, 'entry.mjs'), logLevel: 'silent' });
    const run = (cmd: string) => execFileSync('script', ['-qec', cmd, '/dev/null'], { env: { PATH: process.env.PATH ?? '', TERM: 'xterm' }, timeout: 20_000 }).toString();
    expect(screen(run(`stty cols 80; ${process.execPath} ${join(tmp, 'entry.mjs')}`).replace(/\r\n/g, '\n'))).toEqual(['row 1', 'row 2', 'row 3', '3 rows']);
    const redirected = run(`stty cols 80; ${process.execPath} ${join(tmp, 'entry.mjs')} > ${join(tmp, 'out.txt')}`);
    expect(redirected).toContain('3/3 working');
    expect(screen(redirected.replace(/\r\n/g, '\n'))).toEqual(['3 rows']);
  });

  it('a program that exits with the line shown (its reader, `| head`, went away) leaves no line behind', async () => {
    const entry = join(tmp, 'exits.ts');
    writeFileSync(
      entry,
      `import { createProgressLine, processExit } from ${JSON.stringify(join(process.cwd(), 'src/output/progress.ts'))};
       const progress = createProgressLine({ stderr: process.stderr, stdoutIsTTY: false, atExit: processExit });
       progress.update('2/9 scheduling row 3');
       process.exit(0);`,
    );
    await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile: join(tmp, 'exits.mjs'), logLevel: 'silent' });
    const run = (cmd: string) => execFileSync('script', ['-qec', cmd, '/dev/null'], { env: { PATH: process.env.PATH ?? '', TERM: 'xterm' }, timeout: 20_000 }).toString();
    const raw = run(`stty cols 80; ${process.execPath} ${join(tmp, 'exits.mjs')} > ${join(tmp, 'exits.txt')}; echo PROMPT`);
    expect(raw).toContain('2/9 scheduling row 3');
    expect(screen(raw.replace(/\r\n/g, '\n'))).toEqual(['PROMPT']);
  });
});
