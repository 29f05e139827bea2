// A long bulk check (past 1,000 rows the built binary keeps its heap from growing with the run,
// through V8 flags set at run time): the report is the very bytes the same check prints in
// process, in JSON and TSV, with nothing more on stderr (a flag V8 refused would be said there);
// and Ctrl-C past that point still stops it, exit 130, nothing on stdout.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { BIN, ensureBuilt } from './ensure-built.js';

const dir = mkdtempSync(join(tmpdir(), 'bulk-check-long-'));
const IMAGES = 50;

beforeAll(async () => {
  await ensureBuilt();
  mkdirSync(join(dir, 'images'));
  for (let i = 0; i < IMAGES; i++) writeFileSync(join(dir, 'images', `img${i}.png`), png(1000 + i, 800));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A PNG's signature and IHDR (what the check reads), then filler. */
function png(width: number, height: number): Buffer {
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const ihdr = Buffer.concat([u32(13), Buffer.from('IHDR'), u32(width), u32(height), Buffer.from([8, 2, 0, 0, 0]), u32(0)]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr, Buffer.alloc(512)]);
}

/** Rows from `from`, each with an image; every 97th row's text is too long for Bluesky. */
const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return `2030-01-01T09:00:00Z,bluesky,${i % 97 === 0 ? 'x'.repeat(301) : `row ${i}`},images/img${i % IMAGES}.png`;
  }).join('\n') + '\n';

const HEADER = 'at,platforms,text,media\n';

function startBinary(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, SOCIALPUB_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1', TZ: 'UTC' } });
  const r = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (r.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (r.stderr += c));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, ...r })));
  return { child, done };
}

describe('posts check --from-file, 1,500 rows', () => {
  it('prints the bytes the in-process check prints, in JSON and TSV, and nothing more on stderr', async () => {
    const csv = join(dir, 'long.csv');
    writeFileSync(csv, HEADER + rows(0, 1500));
    for (const format of [['--json'], ['-o', 'tsv']]) {
      const args = ['posts', 'check', '--from-file', csv, ...format];
      const [binary, inProcess] = await Promise.all([startBinary(args).done, runCli(args, { env: { TZ: 'UTC' } })]);
      expect(binary.code, binary.stderr).toBe(2);
      expect(inProcess.code).toBe(2);
      expect(binary.stdout).toBe(inProcess.stdout);
      expect(binary.stderr).toBe(inProcess.stderr);
      // The whole report: every row's target, the failures among them.
      if (format[0] === '--json') {
        const report = JSON.parse(binary.stdout) as { accepted: boolean; targets: Array<{ line: number; accepted: boolean }> };
        expect(report.targets).toHaveLength(1500);
        expect(report.targets.filter((t) => !t.accepted).map((t) => t.line - 2)).toEqual(Array.from({ length: 16 }, (_, k) => k * 97));
      } else expect(binary.stdout.split('\n').filter((l) => l.includes('\ttext.length\t'))).toHaveLength(1500);
    }
  }, 120_000);

  it.skipIf(process.platform === 'win32')('stops on Ctrl-C once past 1,000 rows: exit 130, nothing on stdout', async () => {
    // A FIFO: once a write of it has returned, the check has read (and judged) all but the last
    // pieces of it, so the signal is sent past row 1,100 whatever the machine's speed.
    const fifo = join(dir, 'rows.csv');
    execFileSync('mkfifo', [fifo]);
    const { child, done } = startBinary(['posts', 'check', '--from-file', fifo, '--json']);
    const writer = await open(fifo, 'w');
    // 3,000 rows past the first 1,100: more than the pipe holds and the pieces read ahead.
    await writer.write(HEADER + rows(0, 1100) + rows(1100, 3000));
    child.kill('SIGINT');
    // The end of the file comes only after the signal: the rows left are read with the run stopped.
    await writer.close();
    const r = await done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('interrupted');
  }, 120_000);
});
