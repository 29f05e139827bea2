import { describe, expect, it } from 'vitest';
import { compileJq, JqError } from '../../src/output/jq.js';
import { jqWriter, withFields, writeJson } from '../../src/output/shaping.js';
import { jsonArrayWriter, ndjsonWriter } from '../../src/output/writers.js';
import { captureStream } from '../helpers/run-cli.js';
import { createOutput } from '../../src/output/output.js';

const rows = Array.from({ length: 250 }, (_, i) => ({ id: `res_${i}`, status: i % 5 ? 'published' : 'failed', error: i % 5 ? null : { code: 'rate_limited', message: 'slow' } }));

async function writeAll<T>(w: { write(r: T): Promise<void>; end(): Promise<void> }, input: T[]) {
  for (const r of input) await w.write(r);
  await w.end();
}

describe('shaping writers', () => {
  it('--fields on JSON and NDJSON rows', async () => {
    const json = captureStream();
    await writeAll(withFields(jsonArrayWriter(json), ['error.code', 'id']), rows.slice(0, 2));
    expect(JSON.parse(json.text())).toEqual([
      { error: { code: 'rate_limited' }, id: 'res_0' },
      { error: { code: null }, id: 'res_1' },
    ]);
    const nd = captureStream();
    const w = withFields(ndjsonWriter(nd), ['id']);
    await writeAll(w, rows.slice(0, 3));
    expect(nd.text()).toBe('{"id":"res_0"}\n{"id":"res_1"}\n{"id":"res_2"}\n');
    expect(w.count).toBe(3);
  });

  it('--json --jq length gives one number over every page (not one per page, cli/cli#10459)', async () => {
    const out = captureStream();
    await writeAll(jqWriter(out, await compileJq('length'), { mode: 'whole' }), rows);
    expect(out.text()).toBe('250\n');
  });

  it('-o ndjson --jq runs per row in batches, keeping order across batches', async () => {
    const out = captureStream();
    const w = jqWriter(out, await compileJq('select(.status == "failed") | .id'), { mode: 'each', batchSize: 7 });
    await writeAll(w, rows);
    expect(out.text().trimEnd().split('\n')).toEqual(rows.filter((r) => r.status === 'failed').map((r) => r.id));
    expect(w.count).toBe(250);
  });

  it('a runtime error keeps what came before it and says --jq', async () => {
    const out = captureStream();
    const w = jqWriter(out, await compileJq('.error.code | ascii_downcase'), { mode: 'each', batchSize: 3 });
    await expect(writeAll(w, rows.slice(0, 6))).rejects.toBeInstanceOf(JqError);
    expect(out.text()).toBe('rate_limited\n');
  });
});

describe('--json --jq failing partway', () => {
  it('over the whole list: the values before the error, one per line, then the error', async () => {
    const out = captureStream();
    const w = jqWriter(out, await compileJq('.[] | .error.code | ascii_upcase'), { mode: 'whole' });
    // Row 0 failed (a code), row 1 published (null): jq stops at the second row.
    await expect(writeAll(w, rows.slice(0, 3))).rejects.toThrow(/^--jq: explode input must be a string/);
    expect(out.text()).toBe('RATE_LIMITED\n');
  });

  it('over one object (results get, posts view): the values before the error, then the error', async () => {
    const out = captureStream();
    const output = createOutput({ stdout: out, stderr: captureStream(), format: 'json', jq: await compileJq('.id, .status, error("stop"), .error') });
    await expect(output.object(rows[0], () => '')).rejects.toBeInstanceOf(JqError);
    expect(out.text()).toBe('res_0\nfailed\n');
  });
});

describe('writeJson', () => {
  it('writes exactly what JSON.stringify does, indented or compact', async () => {
    const values: unknown[] = [
      { total: 3, groups: [{ key: 'a', n: 1, nested: { x: [1, 2] } }, { key: 'b' }], empty: [], skip: undefined, s: 'x\ny' },
      { only: 1 },
      [1, { a: 2 }],
      'text',
      null,
      { list: [null, 'two', [3]], d: new Date(0), f: () => 1 },
      // Long arrays are written a slice at a time: the pieces must join at every slice boundary.
      { rows: Array.from({ length: 250 }, (_, i) => (i % 7 === 0 ? undefined : { i, nested: { list: [i, 'a\nb', null] }, empty: [] })), after: [1] },
    ];
    expect(values).toHaveLength(7);
    for (const value of values) {
      for (const indent of [0, 2]) {
        let text = '';
        await writeJson({ write: (c: string) => ((text += c), true) }, value, indent);
        expect(text).toBe(JSON.stringify(value, null, indent) + '\n');
      }
    }
  });
});
