// output.heldReport: a report made a part at a time prints exactly what report() prints whole,
// in every format, whether its parts stayed in memory or went to disk; and spools clean up.
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { captureStream } from '../helpers/run-cli.js';
import { createOutput } from '../../src/output/output.js';
import { compileJq } from '../../src/output/jq.js';
import { Spools } from '../../src/output/spool.js';
import type { Format } from '../../src/output/formats.js';

interface Row {
  name: string;
  verdict: string;
}
const view = { kind: 'table' as const, columns: [{ header: 'name', value: (r: Row) => r.name }, { header: 'verdict', value: (r: Row) => r.verdict }] };

/** A report of `n` items ("≤" in each: two-byte text; a C1 or bidi control in some, which JSON output escapes). */
function report(n: number) {
  const targets = Array.from({ length: n }, (_, i) => ({ line: i + 2, name: `t${i} ≤ ${['\u0085', '', '\u202e', '', '', '\u061c\u007f'][i % 6]}`, checks: [{ rule: 'x', verdict: i % 3 ? 'pass' : 'fail' }] }));
  const problems = n > 2 ? [{ field: 'line 3', message: 'bad\nline' }] : [];
  const rows: Row[] = targets.map((t) => ({ name: t.name, verdict: t.checks[0]!.verdict }));
  return { value: { accepted: problems.length === 0, problems, targets }, rows };
}

async function whole(format: Format, n: number, extra: { jq?: string; fields?: string[] } = {}) {
  const { value, rows } = report(n);
  const out = captureStream();
  const output = createOutput({ stdout: out, stderr: captureStream(), format, ...(extra.jq ? { jq: await compileJq(extra.jq) } : {}), ...(extra.fields ? { fields: extra.fields } : {}) });
  // What the held report must equal: failures first, as posts check orders them.
  await output.report(value, [...rows.filter((r) => r.verdict === 'fail'), ...rows.filter((r) => r.verdict !== 'fail')], view);
  return out.text();
}

async function held(format: Format, n: number, batch: number, extra: { jq?: string; fields?: string[] } = {}) {
  const { value, rows } = report(n);
  const out = captureStream();
  const output = createOutput({ stdout: out, stderr: captureStream(), format, ...(extra.jq ? { jq: await compileJq(extra.jq) } : {}), ...(extra.fields ? { fields: extra.fields } : {}) });
  const r = output.heldReport<Row>(view, ['problems', 'targets'], 2);
  for (let i = 0; i < n; i += batch) {
    if (i === 0) r.items('problems', value.problems);
    r.items('targets', value.targets.slice(i, i + batch));
    const some = rows.slice(i, i + batch);
    r.rows(0, some.filter((x) => x.verdict === 'fail'));
    r.rows(1, some.filter((x) => x.verdict !== 'fail'));
  }
  await r.end({ accepted: value.accepted });
  return out.text();
}

describe('output.heldReport', () => {
  it('prints what report() prints whole, in every format, batch boundaries anywhere', async () => {
    for (const format of ['json', 'ndjson', 'tsv', 'csv', 'table'] as const) {
      for (const [n, batch] of [[0, 1], [1, 1], [5, 2], [40, 7]] as const) {
        expect(await held(format, n, batch), `${format} ${n}/${batch}`).toBe(await whole(format, n));
      }
    }
    expect(JSON.parse(await held('json', 5, 2)).targets).toHaveLength(5);
  });

  it('--jq and --fields see the whole report', async () => {
    expect(await held('json', 9, 4, { jq: '.targets | length' })).toBe('9\n');
    expect(await held('json', 9, 4, { fields: ['accepted'] })).toBe(await whole('json', 9, { fields: ['accepted'] }));
  });

  it('a report too long for memory goes through temporary files, none left behind', async () => {
    const before = new Set(readdirSync(tmpdir()).filter((f) => f.startsWith('socialpub-report-')));
    // About 6 MB of JSON: past what a spool folder keeps in memory.
    const n = 60_000;
    const text = await held('json', n, 500);
    expect(text).toBe(await whole('json', n));
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('socialpub-report-') && !before.has(f))).toEqual([]);
  });
});

describe('Spools', () => {
  it('keep text in memory while small, then in a file with no name left behind, and give it back in order', async () => {
    const before = readdirSync(tmpdir()).filter((f) => f.startsWith('socialpub-report-'));
    const spools = new Spools();
    const small = spools.spool();
    small.write('a\n');
    small.write('b\n');
    const big = spools.spool();
    const line = `${'é'.repeat(1000)}\n`;
    // About 6 MB: past the memory allowance, so both spools are on disk now, unlinked.
    for (let i = 0; i < 3000; i++) big.write(line);
    expect(readdirSync(tmpdir()).filter((f) => f.startsWith('socialpub-report-'))).toEqual(before);
    const lines: string[] = [];
    for await (const l of small.lines()) lines.push(l);
    expect(lines).toEqual(['a', 'b']);
    let count = 0;
    for await (const l of big.lines()) {
      expect(l).toBe(line.slice(0, -1));
      count++;
    }
    expect(count).toBe(3000);
    spools.discard();
  });
});
