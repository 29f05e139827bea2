// Streaming writers for lists: JSON array, NDJSON, TSV and terminal tables. Each honours
// back-pressure so that `--all` over a million rows runs in constant memory.
import type { Colors } from './colors.js';

export interface Sink {
  write(chunk: string): boolean;
  once?(event: 'drain', listener: () => void): unknown;
}

/** Writes and, when the stream's buffer is full, waits for it to drain. */
export async function writeTo(sink: Sink, chunk: string): Promise<void> {
  if (!sink.write(chunk) && sink.once) {
    await new Promise<void>((resolve) => sink.once!('drain', resolve));
  }
}

export interface Column<T> {
  header: string;
  /** Plain value, used for TSV (and for the table when no `pretty` is given). */
  value(row: T): string;
  /** Terminal rendering (colour, icons, relative times). */
  pretty?(row: T, colors: Colors): string;
  /** Cut to this many characters on a terminal. */
  maxWidth?: number;
  /** Drawn for people only (a bar): left out of TSV. */
  tableOnly?: boolean;
}

export interface ListWriter<T> {
  write(row: T): Promise<void>;
  end(): Promise<void>;
  readonly count: number;
}

export function jsonArrayWriter<T>(sink: Sink): ListWriter<T> {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async write(row) {
      await writeTo(sink, (count === 0 ? '[\n  ' : ',\n  ') + JSON.stringify(row));
      count++;
    },
    async end() {
      await writeTo(sink, count === 0 ? '[]\n' : '\n]\n');
    },
  };
}

export function ndjsonWriter<T>(sink: Sink): ListWriter<T> {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async write(row) {
      count++;
      await writeTo(sink, JSON.stringify(row) + '\n');
    },
    async end() {},
  };
}

/** TSV cells: tabs and newlines would break the row, so they are escaped. */
export function tsvCell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\r?\n/g, '\\n');
}

export function tsvWriter<T>(sink: Sink, columns: Column<T>[]): ListWriter<T> {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async write(row) {
      count++;
      await writeTo(sink, columns.map((c) => tsvCell(c.value(row))).join('\t') + '\n');
    },
    async end() {},
  };
}

const ANSI = /\u001b\[[0-9;]*m/g;
export function visibleWidth(s: string): number {
  let n = 0;
  for (const ch of s.replace(ANSI, '')) {
    const cp = ch.codePointAt(0) ?? 0;
    // Wide East Asian and emoji code points take two cells.
    n += cp >= 0x1100 && (cp <= 0x115f || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) || (cp >= 0x1f300 && cp <= 0x1faff)) ? 2 : 1;
  }
  return n;
}

export function truncate(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ');
  if (max <= 1 || visibleWidth(flat) <= max) return flat;
  let out = '';
  for (const ch of flat) {
    if (visibleWidth(out + ch) > max - 1) break;
    out += ch;
  }
  return out + '…';
}

function pad(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - visibleWidth(s)));
}

/**
 * Aligned columns for a terminal. Rows are buffered in chunks (all of a `--limit` list fits in
 * one), so a long `--all` listing still streams; each chunk keeps the first chunk's widths.
 */
export function tableWriter<T>(sink: Sink, columns: Column<T>[], colors: Colors, terminalWidth: number, chunkSize = 200): ListWriter<T> {
  let count = 0;
  let buffer: string[][] = [];
  let widths: number[] | undefined;

  const render = (row: T) =>
    columns.map((c) => {
      const text = c.pretty ? c.pretty(row, colors) : c.value(row);
      return c.maxWidth ? truncate(text, c.maxWidth) : text.replace(/\r?\n/g, ' ');
    });

  const flush = async () => {
    if (buffer.length === 0 && widths) return;
    if (!widths) {
      widths = columns.map((c, i) => Math.max(visibleWidth(c.header), ...buffer.map((r) => visibleWidth(r[i] ?? ''))));
      // Give the last column what is left of the terminal, so long texts do not wrap.
      const used = widths.slice(0, -1).reduce((a, b) => a + b + 2, 0);
      const last = widths.length - 1;
      if (last >= 0 && terminalWidth > 0) widths[last] = Math.max(10, Math.min(widths[last]!, terminalWidth - used));
      await writeTo(sink, columns.map((c, i) => colors.bold(pad(c.header.toUpperCase(), widths![i]!))).join('  ').trimEnd() + '\n');
    }
    const w = widths;
    const lines = buffer.map((cells) =>
      cells
        .map((cell, i) => {
          const fitted = i === cells.length - 1 && visibleWidth(cell) > w[i]! ? truncate(cell.replace(ANSI, ''), w[i]!) : cell;
          return i === cells.length - 1 ? fitted : pad(fitted, w[i]!);
        })
        .join('  ')
        .trimEnd(),
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
  };
}
