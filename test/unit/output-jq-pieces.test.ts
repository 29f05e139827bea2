// --json --jq '.[] | …' runs on the list a piece at a time: the same lines as over the whole list,
// without holding every row. Checked with the real jq: the programs taken for per-row ones print
// the same in pieces, and those refused would not.
import { describe, expect, it } from 'vitest';
import { compileJq, JqError } from '../../src/output/jq.js';
import { runsPerRow } from '../../src/output/jq-pieces.js';
import { jqWriter } from '../../src/output/shaping.js';
import { captureStream } from '../helpers/run-cli.js';

const rows = Array.from({ length: 53 }, (_, i) => ({ id: `res_${i}`, n: i, tags: i % 3 ? ['a', 'b'] : [], error: i % 4 ? null : { code: 'RATE_LIMIT', 'odd key': i } }));

const PER_ROW = [
  '.[]',
  '.[] | .id',
  ' .[]|select(.n % 7 == 0) | .id, .n',
  '.[].id',
  '.[]?',
  '.[].tags[]',
  '.[].error?."odd key"',
  '.[]["id"]',
  '.[]\n| . as $r | [$r.id, ($r.tags | length)]',
  '.[] | if .error then .error.code else empty end',
  '.[] | "\\(.id)\\t\\(.n)"',
  '.[] | [.id, (first(inputs) // "one input")]',
  '.[] | ""',
];

const WHOLE_LIST = [
  'length',
  'map(.id)',
  '.[] , "end"',
  '.[] // "none"',
  '.[] as $r | length',
  '.[] |= .id',
  '.[] | if .n == 20 then halt else .id end',
  '.[] | if .n == 20 then "stop" | halt_error else .id end',
  '(.[] | .id), length',
  '.[] .id',
  'first(.[])',
  '.[0]',
];

/** The lines a program prints over the rows cut into pieces of `size`, each one input; up to its error, if any. */
function inPieces(run: (v: unknown) => string[], size: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < rows.length; i += size) {
    try {
      lines.push(...run(rows.slice(i, i + size)));
    } catch (e) {
      if (!(e instanceof JqError)) throw e;
      return lines.concat(e.lines);
    }
  }
  return lines;
}

/** The lines a program prints over the whole list; up to its error, if any. */
function whole(run: (v: unknown) => string[]): readonly string[] {
  try {
    return run(rows);
  } catch (e) {
    if (!(e instanceof JqError)) throw e;
    return e.lines;
  }
}

describe('which --jq programs run on the list a piece at a time', () => {
  it.each(PER_ROW)('%j runs per row', (expr) => {
    expect(runsPerRow(expr)).toBe(true);
  });

  it.each(WHOLE_LIST)('%j needs the whole list', (expr) => {
    expect(runsPerRow(expr)).toBe(false);
  });

  it.each(PER_ROW)('%j prints the same in pieces as over the whole list (real jq)', async (expr) => {
    const p = await compileJq(expr, { onStderr: () => {} });
    expect(p.perRow).toBe(true);
    expect(inPieces(p.run, 7)).toEqual(whole(p.run));
  });

  // The reason each one is refused: in pieces it would print something else. (`.[] .id` is the
  // same as `.[].id`, refused only because the head is read strictly; `.[] // "none"` differs only
  // on a piece whose every row is null or false.)
  it.each(WHOLE_LIST.filter((e) => e !== '.[] .id' && e !== '.[] // "none"'))('%j prints something else in pieces (real jq)', async (expr) => {
    const p = await compileJq(expr, { onStderr: () => {} });
    expect(p.perRow).toBe(false);
    expect(inPieces(p.run, 7)).not.toEqual(whole(p.run));
  });
});

describe('jqWriter over the whole list (--json --jq)', () => {
  /** Writes the rows through jqWriter; returns what was printed after the first 10 rows, and in all. */
  async function printed(expr: string): Promise<{ afterTen: string; all: string }> {
    const out = captureStream();
    const w = jqWriter(out, await compileJq(expr), { mode: 'whole', batchSize: 10 });
    for (const r of rows.slice(0, 10)) await w.write(r);
    const afterTen = out.text();
    for (const r of rows.slice(10)) await w.write(r);
    await w.end();
    return { afterTen, all: out.text() };
  }

  it('with .[] | …, prints each piece as it fills, before the list ends, and the same lines in all', async () => {
    const streamed = await printed('.[] | select(.error) | .id');
    expect(streamed.afterTen).toBe('res_0\nres_4\nres_8\n');
    // In parentheses the program is a whole-list one: nothing until the list ends.
    const held = await printed('(.[] | select(.error) | .id)');
    expect(held.afterTen).toBe('');
    expect(streamed.all).toBe(held.all);
    expect(held.all.split('\n')).toHaveLength(15);
  });

  it('a runtime error in a later piece: the lines before it, then the error, as over the whole list', async () => {
    const expr = '.[] | .id, (.error.code | ascii_downcase)';
    const streamed = captureStream();
    const w = jqWriter(streamed, await compileJq(expr), { mode: 'whole', batchSize: 4 });
    const writeAll = async () => {
      for (const r of rows) await w.write(r);
      await w.end();
    };
    await expect(writeAll()).rejects.toBeInstanceOf(JqError);
    const p = await compileJq(expr, { onStderr: () => {} });
    let before: readonly string[] = [];
    try {
      p.run(rows);
    } catch (e) {
      if (e instanceof JqError) before = e.lines;
    }
    expect(before).toEqual(['res_0', 'rate_limit', 'res_1']);
    expect(streamed.text()).toBe(before.join('\n') + '\n');
  });
});
