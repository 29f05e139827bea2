// A bulk run's rows on a terminal: never through a pager (it would sit at `(END)` while the run
// goes on), and never on the same line as the status line that counts the run.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOutput } from '../../src/output/output.js';
import type { RunView, TableView } from '../../src/output/output.js';

const tmp = mkdtempSync(join(tmpdir(), 'socialpub-run-view-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// A pager that records that it ran.
const recorder = join(tmp, 'pager.mjs');
writeFileSync(recorder, `import { writeFileSync } from 'node:fs'; writeFileSync(process.argv[2], 'ran'); process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`);

/** One screen for stdout and stderr, as a terminal shows them: \r returns, ESC[2K erases the line. */
function screen() {
  const raw: string[] = [];
  const stream = { isTTY: true, columns: 80, write: (s: string) => (raw.push(s), true) };
  const lines = () => {
    const out: string[] = [''];
    let col = 0;
    const text = raw.join('');
    for (let i = 0; i < text.length; i++) {
      if (text.startsWith('\u001b[2K', i)) {
        out[out.length - 1] = '';
        i += 3;
      } else if (text[i] === '\r') col = 0;
      else if (text[i] === '\n') {
        out.push('');
        col = 0;
      } else {
        const line = out[out.length - 1]!;
        out[out.length - 1] = line.slice(0, col) + text[i] + line.slice(col + 1);
        col++;
      }
    }
    return out;
  };
  return { stream, lines };
}

interface Row {
  row: number;
  id: string;
}
const columns = [
  { header: 'row', value: (r: Row) => String(r.row), expectedWidth: 3 },
  { header: 'id', value: (r: Row) => r.id, expectedWidth: 12 },
];

describe('a run view on a terminal', () => {
  it('never starts the pager, and no row shares a line with the status line', async () => {
    const ranFile = join(tmp, 'ran-run');
    const { stream, lines } = screen();
    const out = createOutput({ stdout: stream, stderr: stream, format: 'table', pageable: true, env: { PAGER: `${process.execPath} ${recorder} ${ranFile}` } });
    const status = out.statusLine();
    const view: RunView<Row> = { kind: 'run', columns, summary: () => ({}) };
    const writer = out.listWriter(view);
    for (let i = 1; i <= 7; i++) {
      status.update(`${i - 1}/7 · scheduling row ${i} (line ${i + 1})`);
      await writer.write({ row: i, id: `post_${i}xyz` });
    }
    status.clear();
    await writer.end();
    await out.close();
    expect(existsSync(ranFile)).toBe(false);
    const shown = lines().filter((l) => l.trim() !== '');
    expect(shown.filter((l) => /post_\dxyz/.test(l))).toHaveLength(7);
    for (const l of shown) expect(l, l).not.toMatch(/scheduling row.*post_|post_.*scheduling row/);
  });

  it('a table still pages on the same terminal', async () => {
    const ranFile = join(tmp, 'ran-table');
    const { stream } = screen();
    const out = createOutput({ stdout: stream, stderr: stream, format: 'table', pageable: true, env: { PAGER: `${process.execPath} ${recorder} ${ranFile}` } });
    const view: TableView<Row> = { kind: 'table', columns };
    await out.list([{ row: 1, id: 'post_1' }], view);
    await out.close();
    expect(existsSync(ranFile)).toBe(true);
  });
});
