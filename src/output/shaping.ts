// --fields and --jq as list writers, so the format decision stays in one place: rows go in, the
// shaped output comes out. The jq program is compiled by the caller (jq.ts loads only for --jq).
import { TextDecoder } from 'node:util';
import { pickFields } from './fields.js';
import type { JqProgram } from './jq.js';
import { isByteSink, writeBytesTo, writeTo, type ListWriter, type Sink } from './writers.js';
import { hasJsonUnsafeBytes, terminalJson } from './terminal-safe.js';

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
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
  const entries = isObject(value) ? Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol') : [];
  if (!isObject(value) || !entries.some(([, v]) => Array.isArray(v) && v.length > 0)) {
    await writeTo(sink, stringify(value, indent) + '\n');
    return;
  }
  const object = jsonObjectWriter(sink, indent);
  for (const [key, v] of entries) {
    if (!Array.isArray(v)) await object.field(key, v);
    else await object.list(key, slices(v, indent));
  }
  await object.end();
}

function* slices(values: readonly unknown[], indent: number): Generator<string> {
  for (let j = 0; j < values.length; j += JSON_SLICE) yield jsonElements(values.slice(j, j + JSON_SLICE), indent, j === 0);
}

// As jsonText writes it: DEL and C1 inside strings as \u escapes, so a terminal never obeys them.
const stringify = (v: unknown, indent: number) => terminalJson(JSON.stringify(v, null, indent) ?? 'null');

/**
 * Elements of an array that is a field of the document's top object, as jsonText would write
 * them there: a piece after the first starts with its comma. Stringified one level deeper inside
 * an array that is then cut off, so JSON.stringify writes the elements' indentation itself
 * (re-indenting each element's text cost more than the stringifying).
 */
export function jsonElements(values: readonly unknown[], indent: number, first: boolean): string {
  if (values.length === 0) return '';
  return elementsOf(stringify([values], indent), indent, first);
}

/**
 * Exactly jsonElements' text, encoded in UTF-8 (what a held report keeps): the characters
 * terminalJson escapes are looked for in the bytes, where finding none costs a third as much.
 */
export function jsonElementsBytes(values: readonly unknown[], indent: number, first: boolean): Buffer {
  if (values.length === 0) return Buffer.alloc(0);
  const text = elementsOf(JSON.stringify([values], null, indent), indent, first);
  const bytes = Buffer.from(text);
  return hasJsonUnsafeBytes(bytes) ? Buffer.from(terminalJson(text)) : bytes;
}

/** The elements in the text of `[values]`: "[" newline "[" … newline "]" "\n]", or "[[" … "]]" compact. */
function elementsOf(text: string, indent: number, first: boolean): string {
  const nl = indent ? indent + 1 : 0;
  return `${first ? '' : ','}${indent ? text.slice(nl + 2, -(nl + 3)) : text.slice(2, -2)}`;
}

export interface JsonObjectWriter {
  /** One field, whole. */
  field(key: string, value: unknown): Promise<void>;
  /**
   * An array field from pieces of jsonElements' text (none: `[]`), or from that text encoded in
   * UTF-8 (pieces of bytes go to a sink that takes them as they are; one that does not gets them decoded).
   */
  list(key: string, pieces: Iterable<string> | AsyncIterable<string | Uint8Array>): Promise<void>;
  end(): Promise<void>;
}

/** An object written field by field, exactly as jsonText would write it whole. */
export function jsonObjectWriter(sink: Sink, indent: number): JsonObjectWriter {
  const nl = indent ? '\n' + ' '.repeat(indent) : '';
  const colon = indent ? ': ' : ':';
  let fields = 0;
  const key = (k: string) => writeTo(sink, `${fields++ ? ',' : '{'}${nl}${terminalJson(JSON.stringify(k))}${colon}`);
  return {
    async field(k, value) {
      await key(k);
      const text = stringify(value, indent);
      await writeTo(sink, indent ? text.replace(/\n/g, nl) : text);
    },
    async list(k, pieces) {
      await key(k);
      let any = false;
      let decoder: TextDecoder | undefined;
      for await (const piece of pieces) {
        if (!piece.length) continue;
        if (!any) await writeTo(sink, '[');
        any = true;
        if (typeof piece === 'string') await writeTo(sink, piece);
        else if (isByteSink(sink)) await writeBytesTo(sink, piece);
        // A piece of a file may end inside a character: decoded as a stream.
        else await writeTo(sink, (decoder ??= new TextDecoder()).decode(piece, { stream: true }));
      }
      await writeTo(sink, any ? `${nl}]` : '[]');
    },
    async end() {
      await writeTo(sink, fields ? `${indent ? '\n' : ''}}\n` : '{}\n');
    },
  };
}
