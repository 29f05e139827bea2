// The one object commands print through: data to stdout in the chosen format, everything else
// (progress, hints, warnings, errors) to stderr.
import { plainColors, type Colors } from './colors.js';
import { jsonArrayWriter, ndjsonWriter, tableWriter, tsvWriter, writeTo, type Column, type ListWriter, type Sink } from './writers.js';
import type { Spinner } from './spinner.js';

export type Format = 'table' | 'tsv' | 'json' | 'ndjson';

export interface OutputOptions {
  stdout: Sink & { isTTY?: boolean; columns?: number };
  stderr: Sink & { isTTY?: boolean; columns?: number };
  format: Format;
  colors?: Colors;
  quiet?: boolean;
  /** Spinners and progress only when both streams are terminals. */
  progress?: boolean;
}

export interface Output {
  readonly format: Format;
  readonly colors: Colors;
  readonly quiet: boolean;
  readonly progress: boolean;
  readonly stdoutIsTTY: boolean;
  /** A streaming writer for rows, in the chosen format. */
  listWriter<T>(columns: Column<T>[]): ListWriter<T>;
  /** Writes every row of a (possibly async) list; returns how many were written. */
  list<T>(rows: Iterable<T> | AsyncIterable<T>, columns: Column<T>[]): Promise<number>;
  /** A single object: JSON under json/ndjson, otherwise the human rendering. */
  object(value: unknown, human: () => string): Promise<void>;
  /** A line of data on stdout. */
  data(line: string): Promise<void>;
  /** Progress and information on stderr (suppressed by --quiet). */
  info(line: string): void;
  warn(line: string): void;
  /** A spinner on stderr; a silent stand-in when not on a terminal. */
  spinner(text: string): Promise<Spinner>;
}

export function createOutput(options: OutputOptions): Output {
  const colors = options.colors ?? plainColors;
  const quiet = options.quiet ?? false;
  const progress = options.progress ?? false;
  const { stdout, stderr, format } = options;

  const listWriter = <T>(columns: Column<T>[]): ListWriter<T> => {
    switch (format) {
      case 'json':
        return jsonArrayWriter<T>(stdout);
      case 'ndjson':
        return ndjsonWriter<T>(stdout);
      case 'tsv':
        return tsvWriter(stdout, columns);
      case 'table':
        return tableWriter(stdout, columns, colors, stdout.columns ?? 120);
    }
  };

  return {
    format,
    colors,
    quiet,
    progress,
    stdoutIsTTY: Boolean(stdout.isTTY),
    listWriter,
    async list(rows, columns) {
      const w = listWriter(columns);
      for await (const row of rows) await w.write(row);
      await w.end();
      return w.count;
    },
    async object(value, human) {
      if (format === 'json') await writeTo(stdout, JSON.stringify(value, null, 2) + '\n');
      else if (format === 'ndjson') await writeTo(stdout, JSON.stringify(value) + '\n');
      else await writeTo(stdout, human().replace(/\n?$/, '\n'));
    },
    async data(line) {
      await writeTo(stdout, line + '\n');
    },
    info(line) {
      if (!quiet) stderr.write(line + '\n');
    },
    warn(line) {
      stderr.write(colors.yellow('warning: ') + line + '\n');
    },
    async spinner(text) {
      const { createSpinner } = await import('./spinner.js');
      return createSpinner(stderr, text, progress, colors.enabled);
    },
  };
}
