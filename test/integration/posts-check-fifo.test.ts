// `posts check --from-file` reads a regular file synchronously (a piece at a time, the event loop
// turning between pieces); anything else, a FIFO here, is still read through promises: the run
// waits for the writer without blocking the process, and judges what it wrote.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'check-fifo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Opens the FIFO for writing once a reader has it open (a non-blocking open fails until then). */
async function openWriter(fifo: string): Promise<number> {
  for (;;) {
    try {
      return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENXIO') throw e;
      await sleep(20);
    }
  }
}

describe.skipIf(process.platform === 'win32')('posts check --from-file of a FIFO', () => {
  it('waits for the writer, then judges what it wrote', async () => {
    const fifo = join(dir, 'rows.csv');
    execFileSync('mkfifo', [fifo]);
    const run = runCli(['posts', 'check', '--from-file', fifo, '--json'], { env: { TZ: 'UTC' } });
    // Only possible while the run's process is free: a blocking open of the FIFO would hold it.
    const fd = await openWriter(fifo);
    writeSync(fd, `at,platforms,text\n${['one', 'two', 'three'].map((t) => `2030-01-01T09:00:00Z,bluesky,${t}`).join('\n')}\n`);
    closeSync(fd);
    const r = await run;
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { accepted: boolean; targets: Array<{ line: number }> };
    expect(report.accepted).toBe(true);
    expect(report.targets.map((t) => t.line)).toEqual([2, 3, 4]);
  });
});
