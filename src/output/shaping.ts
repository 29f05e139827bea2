// --fields and --jq as list writers, so the format decision stays in one place: rows go in, the
// shaped output comes out. The jq program is compiled by the caller (jq.ts loads only for --jq).
import { pickFields } from './fields.js';
import type { JqProgram } from './jq.js';
import { writeTo, type ListWriter, type Sink } from './writers.js';
import { terminalJson } from './terminal-safe.js';

/** Rows reduced to the `--fields` paths before the inner (JSON/NDJSON) writer sees them. */
export function withFields<T>(inner: ListWriter<Record<string, unknown>>, paths: readonly string[]): ListWriter<T> {
  return {
    get count() {
      return inner.count;
    },
    write: (row) => inner.write(pickFields(row, paths)),
    end: () => inner.end(),
    abort: () => inner.abort(),
  };
}

export interface JqWriterOptions {
  /**
   * `whole`: the program runs once over the array of all rows (`--json`), so aggregates such as
   * `length` see every page; a program that starts with `.[]` (program.perRow) runs over the rows
   * a piece at a time instead, which prints the same and holds one piece. `each`: once per row
   * (`-o ndjson`), in batches, in constant memory.
   */
  mode: 'whole' | 'each';
  /** Rows per jq run in `each` mode and per piece (a page is a good size). */
  batchSize?: number;
}

/** Writes a jq run's output lines; when it fails, the lines jq printed before the error, then the error is thrown. */
export async function writeJqLines(sink: Sink, lines: () => readonly string[]): Promise<void> {
  const emit = async (out: readonly string[]) => {
    if (out.length) await writeTo(sink, out.join('\n') + '\n');
  };
  let out: readonly string[];
  try {
    out = lines();
  } catch (e) {
    // A runtime error (JqError, not imported here so jq stays unloaded) carries the lines
    // produced before it: they are printed, then the error is reported.
    const before = (e as { lines?: unknown }).lines;
    if (Array.isArray(before)) await emit(before as string[]);
    throw e;
  }
  await emit(out);
}

export function jqWriter<T>(sink: Sink, program: JqProgram, options: JqWriterOptions): ListWriter<T> {
  const batchSize = options.batchSize ?? 100;
  const whole = options.mode === 'whole' && !program.perRow;
  // A piece of the list is one input (an array, as the whole list would be); rows are inputs each.
  const runPiece = options.mode === 'whole' ? (rows: T[]) => program.run(rows) : (rows: T[]) => program.runEach(rows);
  let count = 0;
  let rows: T[] = [];
  const run = (lines: () => string[]) => writeJqLines(sink, lines);
  const runBatch = async () => {
    const batch = rows;
    rows = [];
    await run(() => runPiece(batch));
  };
  return {
    get count() {
      return count;
    },
    async write(row) {
      count++;
      rows.push(row);
      if (!whole && rows.length >= batchSize) await runBatch();
    },
    async end() {
      if (whole) {
        const all = rows;
        rows = [];
        await run(() => program.run(all));
      } else if (rows.length) await runBatch();
    },
    // A program over the whole list must not run over part of it; rows already read are still
    // shown, as NDJSON would show them, where the program runs on a row at a time.
    async abort() {
      if (!whole && rows.length) await runBatch();
      rows = [];
    },
  };
}


/** Array elements stringified together (a bounded piece of a long array). */
const JSON_SLICE = 100;

/**
 * Exactly `jsonText(value, indent)`, written a piece at a time: an object's long
 * arrays go out a hundred elements at a time, so a document with hundreds of thousands of entries (stats
 * grouped by post) is never one string in memory as well as one buffer on its way out.
 */
export async function writeJson(sink: Sink, value: unknown, indent: number): Promise<void> {
  // As jsonText writes it: DEL and C1 inside strings as \u escapes, so a terminal never obeys them.
  const stringify = (v: unknown) => terminalJson(JSON.stringify(v, null, indent) ?? 'null');
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
  const nl = indent ? '\n' + ' '.repeat(indent) : '';
  const inner = (text: string) => (indent ? text.replace(/\n/g, nl) : text);
  const entries = isObject(value) ? Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol') : [];
  if (!isObject(value) || !entries.some(([, v]) => Array.isArray(v) && v.length > 0)) {
    await writeTo(sink, stringify(value) + '\n');
    return;
  }
  const colon = indent ? ': ' : ':';
  await writeTo(sink, '{');
  for (const [i, [key, v]] of entries.entries()) {
    await writeTo(sink, `${i ? ',' : ''}${nl}${terminalJson(JSON.stringify(key))}${colon}`);
    if (!Array.isArray(v) || v.length === 0) {
      await writeTo(sink, inner(stringify(v)));
      continue;
    }
    await writeTo(sink, '[');
    // A slice at a time, stringified one level deeper inside an array that is then cut off, so
    // JSON.stringify writes the elements' indentation itself (re-indenting each element's text
    // cost more than the stringifying).
    for (let j = 0; j < v.length; j += JSON_SLICE) {
      const text = stringify([v.slice(j, j + JSON_SLICE)]);
      // "[" newline "[" … newline "]" "\n]", or "[[" … "]]" compact.
      await writeTo(sink, `${j ? ',' : ''}${indent ? text.slice(nl.length + 2, -(nl.length + 3)) : text.slice(2, -2)}`);
    }
    await writeTo(sink, `${nl}]`);
  }
  await writeTo(sink, `${indent ? '\n' : ''}}\n`);
}
