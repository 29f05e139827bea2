// Streaming writers for lists: JSON array, NDJSON, TSV, CSV and terminal tables. Each honours
// back-pressure so that `--all` over a million rows runs in constant memory, and each can end in
// two ways: `end()` after the last row closes the document (`]`, a calendar's footer), `abort()`
// after a failure leaves it open, so that a reader cannot take a cut list for a whole one.
import type { Colors } from './colors.js';
import { columnField } from './fields.js';
import { jsonText, visible } from './terminal-safe.js';
import { layoutTable, type LayoutColumn, type TableLayout } from './layout.js';
import { cutToWidth, displayWidth, flattenCell, padToWidth } from './width.js';

export interface Sink {
  write(chunk: string): boolean;
  once?(event: 'drain', listener: () => void): unknown;
}

/** A sink that also takes text already encoded in UTF-8. */
export interface ByteSink extends Sink {
  writeBytes(chunk: Uint8Array): boolean;
}

export const isByteSink = (sink: Sink): sink is ByteSink => typeof (sink as Partial<ByteSink>).writeBytes === 'function';

/** Settled already: what a write the sink took at once answers, shared so no row allocates one. */
const written: Promise<void> = Promise.resolve();

/**
 * Writes and, when the stream's buffer is full, answers a promise of its 'drain'. A write the
 * sink takes at once returns the settled `written`: a promise per row (an async function and its
 * await) costs about a microsecond, which shows when every webhook delivery is printed.
 */
export const writeTo = (sink: Sink, chunk: string): Promise<void> => drained(sink, sink.write(chunk));

/** writeTo for text already encoded. */
export const writeBytesTo = (sink: ByteSink, chunk: Uint8Array): Promise<void> => drained(sink, sink.writeBytes(chunk));

function drained(sink: Sink, taken: boolean): Promise<void> {
  if (taken || !sink.once) return written;
  return new Promise<void>((resolve) => sink.once!('drain', resolve));
}

export interface Column<T> extends LayoutColumn {
  header: string;
  /** The name `--fields` selects this column by (default: the header in lower case). */
  field?: string;
  /** Plain value, used for TSV (and for the table when no `pretty` is given). */
  value(row: T): string;
  /** The CSV value when it differs from `value` (a boolean as true/false, as spreadsheets read it). */
  csv?(row: T): string;
  /** Terminal rendering (colour, icons, relative times). */
  pretty?(row: T, colors: Colors): string;
  /** A shorter rendering used instead of cutting when the table is too wide ("3 platforms"). */
  compact?(row: T, colors: Colors): string;
  /** Never wider than this many columns on a terminal. */
  maxWidth?: number;
  /** Drawn for people only (a bar): left out of TSV. */
  tableOnly?: boolean;
  /**
   * Rows whose cell must be shown whole (a live URL, to copy it): optional columns give way for
   * these widths; other cells of the column (an error message) may be cut as usual.
   */
  whole?(row: T): boolean;
  /**
   * The start of the cell that must never be cut (an error code, read before anything else): the
   * column stays at least that wide, plus one for the `…`, while other columns can give way.
   */
  lead?(row: T): string;
  /**
   * When the table has no room for this column, its short mark joins another column's cell (a
   * default account's ✓ after its handle, a broken limit after the actual value) rather than
   * being lost; `legend` then follows the host's header to say what the mark means.
   */
  fold?: { into: string; mark(row: T, colors: Colors): string; legend?: string };
}

export interface ListWriter<T> {
  /** Writes in call order; the promise settles when the sink can take more (await it for back-pressure). */
  write(row: T): Promise<void>;
  /** Every row was written: close the document. */
  end(): Promise<void>;
  /** Reading the rows failed: keep what was written, close nothing, add nothing that looks final. */
  abort(): Promise<void>;
  readonly count: number;
}

const nothing = () => written;

export function jsonArrayWriter<T>(sink: Sink): ListWriter<T> {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async write(row) {
      await writeTo(sink, (count === 0 ? '[\n  ' : ',\n  ') + jsonText(row));
      count++;
    },
    async end() {
      await writeTo(sink, count === 0 ? '[]\n' : '\n]\n');
    },
    // An unclosed array (or nothing at all) makes a JSON reader fail, as it should.
    abort: nothing,
  };
}

/** One line per row (NDJSON, ids under -q, log lines on a terminal); an empty line is skipped. */
export function lineWriter<T>(sink: Sink, render: (row: T) => string): ListWriter<T> {
  let count = 0;
  return {
    get count() {
      return count;
    },
    write(row) {
      count++;
      const line = render(row);
      return line ? writeTo(sink, line + '\n') : written;
    },
    end: nothing,
    abort: nothing,
  };
}

export function ndjsonWriter<T>(sink: Sink): ListWriter<T> {
  return lineWriter(sink, (row: T) => jsonText(row));
}

/**
 * A TSV cell from the exact value: a backslash is written `\\`, a tab `\t`, a line break `\n`
 * (they would break the row), and every other control character a terminal acts on as its one
 * visible escape `\uXXXX` (terminal-safe.ts), so that a reader turns each escape back into the
 * character it stands for. The value must not have been made visible before: its escapes'
 * backslashes would be doubled (`\\u0007`, read back as text, not as the character).
 */
export function tsvCell(value: string): string {
  // Most cells have none of these: one test instead of three replacements.
  const escaped = TSV_SPECIAL.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r?\n/g, '\\n') : value;
  return visible(escaped);
}
const TSV_SPECIAL = /[\\\t\n]/;

export function tsvWriter<T>(sink: Sink, columns: Column<T>[]): ListWriter<T> {
  let count = 0;
  return {
    get count() {
      return count;
    },
    write(row) {
      count++;
      return writeTo(sink, columns.map((c) => tsvCell(c.value(row))).join('\t') + '\n');
    },
    end: nothing,
    abort: nothing,
  };
}

/**
 * A CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote, a line
 * break or any other control character (kept exact inside the quotes). A cell a spreadsheet would
 * run as a formula (starting with =, +, -, @, tab or CR: `=HYPERLINK(…)`, `+cmd|' /C calc'!A0`)
 * is prefixed with ', as OWASP advises, so that it shows as the text it is.
 */
export function csvField(value: string): string {
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return CSV_QUOTE.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
const FORMULA_START = /^[=+\-@\t\r]/;
const CSV_QUOTE = /[",\u0000-\u001f\u007f-\u009f]/;

/**
 * CSV as RFC 4180 has it, for spreadsheets and tickets: CRLF line ends and a header row of the
 * names --fields takes. The header comes with the first row, or alone at the end of an empty list.
 */
export function csvWriter<T>(sink: Sink, columns: Column<T>[]): ListWriter<T> {
  let count = 0;
  const header = columns.map((c) => csvField(columnField(c))).join(',') + '\r\n';
  return {
    get count() {
      return count;
    },
    write(row) {
      const line = columns.map((c) => csvField((c.csv ?? c.value)(row))).join(',') + '\r\n';
      return writeTo(sink, count++ === 0 ? header + line : line);
    },
    async end() {
      if (count === 0) await writeTo(sink, header);
    },
    abort: nothing,
  };
}

interface RenderedRow {
  cells: string[];
  compact: (string | undefined)[];
  /** Per column with a `fold`: its mark, shown in the host's cell once the column is dropped. */
  marks: string[];
  /** Per column: whether this row's cell must be shown whole. */
  whole: boolean[];
  /** Per column: the width of the start that must not be cut (0: none). */
  lead: number[];
}

/**
 * Aligned columns for a terminal, never wider than `terminalWidth` (see layout.ts for what gives
 * way). Rows are buffered in chunks (all of a `--limit` list fits in one), so a long `--all`
 * listing still streams; the first chunk decides the widths and later cells are cut to them.
 */
export function tableWriter<T>(sink: Sink, columns: Column<T>[], colors: Colors, terminalWidth: number, chunkSize = 200): ListWriter<T> {
  const gap = 2;
  let count = 0;
  let buffer: RenderedRow[] = [];
  let layout: TableLayout | undefined;
  const headers = columns.map((c) => c.header.toUpperCase());
  // The column each foldable column's mark would join (absent when --fields left the host out).
  const hosts = columns.map((c) => (c.fold ? columns.findIndex((h) => h.header === c.fold!.into) : -1));
  /** Per shown host: the dropped columns whose marks its cells carry. */
  let folded = new Map<number, number[]>();

  const render = (row: T): RenderedRow => ({
    cells: columns.map((c) => flattenCell(c.pretty ? c.pretty(row, colors) : c.value(row))),
    compact: columns.map((c) => (c.compact ? flattenCell(c.compact(row, colors)) : undefined)),
    marks: columns.map((c) => (c.fold ? flattenCell(c.fold.mark(row, colors)) : '')),
    whole: columns.map((c) => c.whole?.(row) ?? false),
    lead: columns.map((c) => (c.lead ? displayWidth(flattenCell(c.lead(row))) : 0)),
  });
  const withMarks = (r: RenderedRow, i: number, text: string) => {
    const marks = (folded.get(i) ?? []).map((j) => r.marks[j]!).filter((m) => m !== '');
    return marks.length ? [text, ...marks].join(' ') : text;
  };
  const headerOf = (i: number) => {
    const legends = (folded.get(i) ?? []).map((j) => columns[j]!.fold!.legend).filter((l) => l !== undefined);
    return legends.length ? `${headers[i]} (${legends.join(', ').toUpperCase()})` : headers[i]!;
  };

  const line = (texts: (placementIndex: number) => string) => {
    const shown = layout!.columns;
    return shown
      .map((p, i) => {
        const fitted = cutToWidth(texts(i), p.width);
        return i === shown.length - 1 ? fitted : padToWidth(fitted, p.width);
      })
      .join(' '.repeat(gap))
      .trimEnd();
  };

  /** Widths for the columns `among` (indices into `columns`), as indices into `columns`. */
  const fitColumns = (among: readonly number[]): TableLayout => {
    const fitted = layoutTable({
      columns: among.map((i) => {
        const c = columns[i]!;
        return {
          ...pickLayout(c),
          header: headerOf(i),
          ...(c.whole ? { wholeWidth: Math.max(0, ...buffer.filter((r) => r.whole[i]).map((r) => displayWidth(r.cells[i]!))) } : {}),
          ...(c.lead ? { minWidth: leadWidth(c, buffer.map((r) => r.lead[i]!), terminalWidth) } : {}),
        };
      }),
      rows: buffer.map((r) => among.map((i) => withMarks(r, i, r.cells[i]!))),
      compactRows: buffer.map((r) => among.map((i) => (r.compact[i] === undefined ? undefined : withMarks(r, i, r.compact[i])))),
      width: terminalWidth,
      gap,
    });
    const dropped = new Set([...columns.keys()].filter((i) => !among.includes(i)));
    for (const d of fitted.dropped) dropped.add(among[d]!);
    return { columns: fitted.columns.map((p) => ({ ...p, index: among[p.index]! })), dropped: [...dropped].sort((a, b) => a - b) };
  };

  /**
   * Laid out; while that drops a column whose mark can join a column still shown, again with the
   * marks (a host made wider by one mark can push another foldable column out).
   */
  const decideLayout = (): TableLayout => {
    const folding: number[] = [];
    for (;;) {
      const layout = fitColumns([...columns.keys()].filter((i) => !folding.includes(i)));
      const gone = new Set(layout.dropped);
      // A column without a mark in the rows seen (no account is a default) folds nothing, legend included.
      const more = layout.dropped.filter((i) => !folding.includes(i) && hosts[i]! >= 0 && !gone.has(hosts[i]!) && buffer.some((r) => r.marks[i] !== ''));
      if (more.length === 0) return layout;
      folding.push(...more);
      folded = new Map();
      for (const i of folding) folded.set(hosts[i]!, [...(folded.get(hosts[i]!) ?? []), i]);
    }
  };

  const flush = async () => {
    if (buffer.length === 0 && layout) return;
    if (!layout) {
      layout = decideLayout();
      const shown = layout.columns;
      await writeTo(sink, colors.bold(line((i) => headerOf(shown[i]!.index))) + '\n');
    }
    const shown = layout.columns;
    const lines = buffer.map((r) =>
      line((i) => {
        const { index, compact } = shown[i]!;
        return withMarks(r, index, compact ? (r.compact[index] ?? '') : r.cells[index]!);
      }),
    );
    buffer = [];
    if (lines.length) await writeTo(sink, lines.join('\n') + '\n');
  };

  return {
    get count() {
      return count;
    },
    async write(row) {
      count++;
      buffer.push(render(row));
      if (buffer.length >= chunkSize) await flush();
    },
    async end() {
      if (count > 0) await flush();
    },
    // The rows read before the failure are shown; the error follows on stderr.
    async abort() {
      if (count > 0) await flush();
    },
  };
}

/** A column's narrowest width that keeps every lead whole (a hostile one may claim at most half the line). */
function leadWidth(c: LayoutColumn, leads: readonly number[], terminalWidth: number): number | undefined {
  const widest = leads.reduce((w, n) => Math.max(w, n), 0);
  if (widest === 0) return c.minWidth;
  const kept = terminalWidth > 0 ? Math.min(widest + 1, Math.floor(terminalWidth / 2)) : widest + 1;
  return Math.max(c.minWidth ?? 0, kept);
}

function pickLayout(c: LayoutColumn): LayoutColumn {
  return { header: c.header, priority: c.priority, minWidth: c.minWidth, maxWidth: c.maxWidth, shrink: c.shrink, optional: c.optional, expectedWidth: c.expectedWidth };
}
