import { describe, expect, it } from 'vitest';
import { compileJq, JqError, type JqProgram } from '../../src/output/jq.js';

async function compileError(expr: string): Promise<JqError> {
  try {
    await compileJq(expr);
  } catch (e) {
    if (e instanceof JqError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(expr)} not to compile`);
}

function runtimeError(program: JqProgram, run: (p: JqProgram) => unknown): JqError {
  try {
    run(program);
  } catch (e) {
    if (e instanceof JqError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(program.expression)} to fail`);
}

describe('--jq (real jq in WebAssembly)', () => {
  it('prints strings raw and other values as compact JSON, one per line', async () => {
    const p = await compileJq('.id, .n, .tags, .error, .text');
    expect(p.run({ id: 'res_1', n: 2, tags: ['a', 'b'], error: null, text: 'two\nlines' })).toEqual(['res_1', '2', '["a","b"]', 'null', 'two', 'lines']);
  });

  it('prints empty strings, nothing, null, false and 0 exactly as jq -r does: one line each, none for empty', async () => {
    // What `jq -r -c` prints for each over one value, as lines (jq-web trims the last newline of its output).
    const cases: Array<[string, string[]]> = [
      ['""', ['']],
      ['"", ""', ['', '']],
      ['"x", ""', ['x', '']],
      ['"", "x"', ['', 'x']],
      ['empty', []],
      ['null', ['null']],
      ['false', ['false']],
      ['0', ['0']],
      ['.missing // ""', ['']],
      ['[""] | .[]', ['']],
    ];
    for (const [expr, lines] of cases) {
      const p = await compileJq(expr);
      expect(p.run({ id: 'res_1' }), expr).toEqual(lines);
      expect(p.runEach([{ id: 'res_1' }]), `${expr} over one row`).toEqual(lines);
      expect(p.runEach([{ id: 'a' }, { id: 'b' }]), `${expr} over two rows`).toEqual([...lines, ...lines]);
    }
  });

  it('runs once over a whole array, so aggregates are whole (not per page)', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => ({ id: `r${i}`, status: i % 5 ? 'published' : 'failed' }));
    expect((await compileJq('length')).run(rows)).toEqual(['250']);
    expect((await compileJq('map(select(.status == "failed")) | length')).run(rows)).toEqual(['50']);
    expect((await compileJq('group_by(.status) | map({(.[0].status): length}) | add')).run(rows)).toEqual(['{"failed":50,"published":200}']);
  });

  it('runs once per row for NDJSON, in order, in one batch', async () => {
    const p = await compileJq('select(.n % 2 == 0) | .id');
    const rows = Array.from({ length: 10 }, (_, i) => ({ id: `r${i}`, n: i }));
    expect(p.runEach(rows)).toEqual(['r0', 'r2', 'r4', 'r6', 'r8']);
    expect(p.runEach([])).toEqual([]);
  });

  it('has jq 1.7 builtins a look-alike lacks', async () => {
    expect((await compileJq('pick(.a.b)')).run({ a: { b: 1, c: 2 }, d: 3 })).toEqual(['{"a":{"b":1}}']);
    expect((await compileJq('[limit(3; range(10))] | @csv')).run(null)).toEqual(['0,1,2']);
    expect((await compileJq('.t | test("^日本"; "x")')).run({ t: '日本語 👩‍💻' })).toEqual(['true']);
  });

  it('a bad expression is a compile error naming --jq, before any value is seen', async () => {
    const e = await compileError('.a |');
    expect(e.kind).toBe('compile');
    expect(e.message).toMatch(/^--jq: syntax error, unexpected end of file \(line 1\); see the jq manual/);
    expect((await compileError('nosuchfunction(1)')).message).toMatch(/^--jq: nosuchfunction\/1 is not defined/);
    expect((await compileError('  ')).message).toMatch(/^--jq: the expression is empty/);
  });

  it('compiling does not run the program (an endless one compiles at once)', async () => {
    const p = await compileJq('last(range(1e15))');
    expect(p.expression).toBe('last(range(1e15))');
  });

  it('a runtime error names --jq and keeps the lines before it', async () => {
    const p = await compileJq('.n + 1');
    let error: unknown;
    try {
      p.runEach([{ n: 1 }, { n: 2 }, { n: 'x' }, { n: 4 }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JqError);
    const je = error as JqError;
    expect(je.kind).toBe('runtime');
    expect(je.message).toMatch(/^--jq: string \("x"\) and number \(1\) cannot be added/);
    expect(je.lines).toEqual(['2', '3']);
    expect(process.exitCode ?? 0).toBe(0);
  });

  it('a runtime error over one value keeps the outputs jq printed before it, as jq does', async () => {
    const rows = [{ text: 'Hello' }, { text: 'WORLD' }, { text: null }, { text: 'never' }];
    const downcase = runtimeError(await compileJq('.[] | .text | ascii_downcase'), (p) => p.run(rows));
    expect(downcase.kind).toBe('runtime');
    expect(downcase.message).toMatch(/^--jq: explode input must be a string/);
    expect(downcase.lines).toEqual(['hello', 'world']);
    // In a batch of rows: the rows before, then the failing row's own outputs.
    const each = runtimeError(await compileJq('., if . == 3 then error("x") else . end'), (p) => p.runEach([1, 2, 3, 4]));
    expect(each.message).toBe('--jq: x');
    expect(each.lines).toEqual(['1', '1', '2', '2', '3']);
    expect(process.exitCode ?? 0).toBe(0);
  });

  it('the debug messages before a runtime error are shown, once', async () => {
    const seen: string[] = [];
    const p = await compileJq('.[] | debug | 10 / .', { onStderr: (t) => seen.push(t) });
    expect(() => p.run([5, 2, 0, 1])).toThrow(/cannot be divided because the divisor is zero/);
    expect(seen.join('')).toBe('["DEBUG:",5]\n["DEBUG:",2]\n["DEBUG:",0]');
  });

  it('debug output goes to stderr, not into the data', async () => {
    const seen: string[] = [];
    const p = await compileJq('debug | .a', { onStderr: (t) => seen.push(t) });
    expect(p.run({ a: 'x' })).toEqual(['x']);
    expect(seen.join('')).toContain('["DEBUG:",{"a":"x"}]');
  });
});
