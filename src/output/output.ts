// The one object commands print through, and the only place that knows the output format:
// commands hand it rows with a view (views.ts: what each format prints of them) or one object,
// and it writes a table (fitted to the terminal, paged when long), TSV, CSV, JSON, NDJSON or
// iCalendar to stdout, shaped by --fields and --jq; everything else (progress, hints, warnings,
// footers) goes to stderr.
import { plainColors, type Colors } from './colors.js';
import { BatchingSink } from './batching-sink.js';
import { availableFields, checkFields, pickFields, renderFieldRecord } from './fields.js';
import { isJsonFormat, type Format } from './formats.js';
import type { JqProgram } from './jq.js';
import { hyperlink, supportsHyperlinks } from './links.js';
import { pagerWhenLong, type LazyPager } from './pager.js';
import { createProgressLine, createSpinner, processExit, type ProgressLine as TerminalLine, type Spinner } from './progress.js';
import { formatCount } from './time.js';
import { displayWidth } from './width.js';
import { wrapProse, wrapRecord } from './wrap.js';
import { writeTo, type ListWriter, type Sink } from './writers.js';
import { jsonElementsBytes, jsonObjectWriter, writeJqLines, writeJson } from './shaping.js';
import { Spools } from './spool.js';
import { notACalendar, pageable, viewWriter, type TableView, type View } from './views.js';
import { jsonText, safeLine, safeValue, visible } from './terminal-safe.js';
import { isRegularFile } from './regular-file.js';

export type { Format };
export type { Calendar, DocumentView, LogView, RunView, TableView, View } from './views.js';

type Env = Readonly<Record<string, string | undefined>>;
type Terminal = Sink & { isTTY?: boolean; columns?: number; rows?: number };

export interface OutputOptions {
  stdout: Terminal;
  stderr: Terminal;
  format: Format;
  colors?: Colors;
  quiet?: boolean;
  /** Spinners and progress only when both streams are terminals. */
  progress?: boolean;
  now?: () => number;
  /** --fields */
  fields?: readonly string[] | undefined;
  /** --jq, compiled (before any request). */
  jq?: JqProgram | undefined;
  /** The environment: pager, hyperlink and browser settings. */
  env?: Env;
  /** Told what a spinner says, also when none is drawn (the progress line of a CI log). */
  status?: (text: string) => void;
  /** stdout is the process's own terminal, so a pager may take it over (not --no-pager). */
  pageable?: boolean;
}

export interface ObjectOptions {
  /** Under -q on a table or TSV: this alone. */
  id?: string;
  /**
   * A human rendering that can run past a screen (a week's queue, a month's calendar, a long
   * post): taller than the terminal, it goes through the pager as a long table does.
   */
  pageable?: boolean;
  /**
   * An object that is a list at heart (the queue: posts by day): TSV and CSV print these rows, one
   * per line with a header, as every list does, rather than the human rendering. `formats` narrows
   * that to CSV for an object whose drawing is what a file or pipe should get (the calendar).
   * Under -o ics, a view with a calendar prints the rows as one.
   */
  rows?: { rows: Iterable<unknown>; view: TableView<never>; formats?: ReadonlyArray<'tsv' | 'csv'> };
  /**
   * Fields this kind of object may have beyond those this one has (a post without a title): given,
   * --fields is checked against them and the object's own, and an unknown one is exit 2.
   */
  fields?: readonly string[];
}

export interface HeldReport<T> {
  /** Under JSON (`structured`): elements of one of the report's lists, in order. */
  items(list: string, values: readonly unknown[]): void;
  /** Otherwise: rows of one group, in order (rows are plain data: they are held as JSON). */
  rows(group: number, rows: readonly T[]): void;
  /** Prints the report: the head's fields, then each list; or the rows, group by group. */
  end(head: Record<string, unknown>): Promise<void>;
  /** Removes what was held (end() does too). */
  discard(): void;
}

export interface Progress {
  update(rows: number, total: number | undefined): void;
  done(): void;
}

export interface StatusLine {
  update(text: string): void;
  /** Erases the line (before anything else is printed for good). */
  clear(): void;
}

export interface Output {
  readonly colors: Colors;
  readonly quiet: boolean;
  readonly progress: boolean;
  readonly stdoutIsTTY: boolean;
  /** Whether stdout carries JSON for programs (--json / -o ndjson / --jq): human text then goes to stderr. */
  readonly structured: boolean;
  /**
   * --jq runs once over the whole list (--json): every row is held for it, where -o ndjson --jq
   * streams, and so does a program that starts with `.[]` (jq-pieces.ts).
   */
  readonly jqCollects: boolean;
  /**
   * A streaming writer for rows; output batches writes and honours back-pressure. The caller ends
   * it with end() after the last row, or abort() when reading the rows failed.
   */
  listWriter<T>(view: View<T>): ListWriter<T>;
  /**
   * Writes every row of a (possibly async) list; returns how many were written. When reading the
   * rows fails, what was printed stays but nothing is closed (see ListWriter.abort).
   */
  list<T>(rows: Iterable<T> | AsyncIterable<T>, view: View<T>): Promise<number>;
  /**
   * A single object: JSON under json/ndjson, otherwise the human rendering, which is handed the
   * value with the server's control characters made visible (render from it, not the original).
   */
  object<V>(value: V, human: (shown: V) => string, options?: ObjectOptions): Promise<void>;
  /** One object for programs (JSON/NDJSON) whose human form is a table of rows (TSV, table). */
  report<T>(value: unknown, rows: Iterable<T>, view: TableView<T>): Promise<void>;
  /**
   * report() for a report made a part at a time, too long to hold (a bulk check of 20,000 rows):
   * printed at end() as report() would print it whole, what must wait for the end held on disk.
   * `lists` are the report's array fields, in order; `groups` how many groups its rows print in.
   */
  heldReport<T>(view: TableView<T>, lists: readonly string[], groups: number): HeldReport<T>;
  /**
   * A JSON document as it came (a response body): indented for reading, one line for a pipe;
   * shaped by --fields and --jq unless `asIs` (an error body, printed whole).
   */
  document(value: unknown, options?: { asIs?: boolean }): Promise<void>;
  /** A line of data on stdout, whatever the format (completion scripts, help, raw bodies). */
  data(line: string): Promise<void>;
  /** The line under a table on stderr ("showing 1–20 of 4,213 · next: --offset 20"). */
  footer(text: string): void;
  /**
   * A list cut short (by --limit), on stderr in every format but a table, whose footer says it:
   * a TSV, CSV or JSON file must not pass for the whole list. Kept even with --quiet.
   */
  cut(text: string): void;
  /** Progress and information on stderr (suppressed by --quiet). */
  info(line: string): void;
  /** A line on stderr that even --quiet keeps (a script should know nothing new was made). */
  notice(line: string): void;
  warn(line: string): void;
  /** A spinner on stderr; a silent stand-in when not on a terminal. */
  spinner(text: string): Promise<Spinner>;
  /** "12,400 / 100,000 rows" on stderr while a long list streams. */
  rowProgress(): Progress;
  /** One redrawn status line on stderr (bulk runs), cleared before data reaches the same terminal. */
  statusLine(): StatusLine;
  /** A live URL as a clickable link where the terminal supports it. */
  link(url: string, text?: string): string;
  /** Waits for the pager (if one was started) once the command is done. */
  close(): Promise<void>;
}

/** Elements of a held report's list stringified together. */
const HELD_ELEMENTS = 8;

export function createOutput(options: OutputOptions): Output {
  const baseColors = options.colors ?? plainColors;
  const quiet = options.quiet ?? false;
  const progress = options.progress ?? false;
  const { stdout, stderr, format } = options;
  const env = options.env ?? {};
  const now = options.now ?? Date.now;
  const fields = options.fields;
  const jq = options.jq && shownSafe(options.jq);
  const idsOnly = quiet && (format === 'table' || format === 'tsv' || format === 'csv');
  const linksOn = supportsHyperlinks({ env, isTTY: Boolean(stdout.isTTY) });
  /** The link openings we wrote: in a message line, only these links reach the terminal. */
  const ownLinks = new Set<string>();
  const link = (url: string, text = url) => {
    const linked = hyperlink(url, text, linksOn);
    if (linksOn && ownLinks.size < 10_000) ownLinks.add(linked.slice(0, linked.indexOf('\u0007') + 1));
    return linked;
  };
  /**
   * A message line of ours that may quote the server: only our colours and links stay live. With
   * neither colour nor links on (CI, a pipe), nothing of ours is an escape sequence, so every one
   * is the server's and is made visible, a red `ESC[31m` in an error message included.
   */
  const ownSequences = baseColors.enabled || linksOn;
  const safe = (text: string) => (ownSequences ? safeLine(text, ownLinks) : visible(text));
  const colors: Colors = { ...baseColors, link };

  let statusLine: TerminalLine | undefined;
  let pager: LazyPager | undefined;
  /** Where data goes: the pager once one runs, and never through a progress line's text. */
  const target = (): Terminal => {
    const base = pager?.sink ?? stdout;
    return statusLine ? statusLine.wrap(base) : base;
  };

  const startPagerIfLong = () => {
    if (pager || format !== 'table' || !options.pageable) return;
    // Output that fits the screen never reaches the pager (it is held, then written to stdout).
    pager = pagerWhenLong({ env, stdoutIsTTY: Boolean(stdout.isTTY), stdout, rows: stdout.rows });
  };

  const listWriter = <T>(view: View<T>): ListWriter<T> => {
    if (pageable(view) && !idsOnly) startPagerIfLong();
    const sink = new BatchingSink(target());
    // Read when asked: a line view (listen) asks for each line, so a resized terminal is followed.
    const inner = viewWriter(view, sink, {
      format,
      idsOnly,
      fields,
      jq,
      colors,
      get terminalWidth() {
        return stdout.columns || 120;
      },
      toTerminal: Boolean(stdout.isTTY),
      runnerLog: env.GITHUB_ACTIONS === 'true' && !stdout.isTTY && !isRegularFile(stdout),
    });
    return {
      get count() {
        return inner.count;
      },
      write: (row) => inner.write(row),
      async end() {
        await inner.end();
        await sink.end();
        await pager?.flush();
      },
      async abort() {
        await inner.abort();
        await sink.end();
        await pager?.flush();
      },
    };
  };

  /**
   * A line on stderr, kept off a status line that is being drawn; on a terminal wrapped between
   * words. While a pager holds that terminal, it goes through the pager: written beside it, it
   * would be drawn over the pager's screen (and lost when the pager clears it).
   */
  const message = (text: string) => {
    const shown = wrapProse(safe(text), stderr.isTTY ? stderr.columns : undefined);
    if (statusLine) statusLine.log(shown);
    else if (pager?.paging && stderr.isTTY) pager.sink.write(shown + '\n');
    else stderr.write(shown + '\n');
  };

  const output: Output = {
    colors,
    quiet,
    progress,
    stdoutIsTTY: Boolean(stdout.isTTY),
    structured: isJsonFormat(format),
    jqCollects: jq !== undefined && format === 'json' && !jq.perRow,
    listWriter,
    async list(rows, view) {
      const w = listWriter(view);
      try {
        for await (const row of rows) {
          await w.write(row);
          // The user quit the pager: the rest would go nowhere.
          if (pager?.signal.aborted) break;
        }
      } catch (err) {
        await w.abort();
        throw err;
      }
      await w.end();
      return w.count;
    },
    async object(value, human, objectOptions = {}) {
      // Rows with a calendar (the queue's window) are a calendar under -o ics.
      const rows = objectOptions.rows;
      const listed = rows !== undefined && ((rows.formats ?? ['tsv', 'csv']).some((f) => f === format) || (format === 'ics' && rows.view.calendar !== undefined));
      if (format === 'ics' && !listed) throw notACalendar('one object');
      if (listed && rows) {
        await output.list(rows.rows as Iterable<never>, rows.view);
        return;
      }
      if (fields && objectOptions.fields) checkFields(fields, [...new Set([...objectOptions.fields, ...availableFields([value])])]);
      const shaped = fields ? pickFields(value, fields) : value;
      if (jq && isJsonFormat(format)) await writeJqLines(target(), () => jq.run(shaped));
      else if (format === 'json' || format === 'ndjson') {
        // Piece by piece: a report of 400,000 groups is not held as one string and one buffer.
        const sink = new BatchingSink(target());
        await writeJson(sink, shaped, format === 'json' ? 2 : 0);
        await sink.end();
      } else if (quiet && objectOptions.id !== undefined) await writeTo(target(), safe(objectOptions.id) + '\n');
      else {
        // A command whose fields are checked (objectOptions.fields) shows only those, as a record.
        const shown = safeValue(value);
        const rendered = fields && objectOptions.fields ? renderFieldRecord(shown, fields, colors) : human(shown);
        const text = wrapRecord(safe(rendered), stdout.isTTY ? stdout.columns : undefined);
        if (!text) return;
        if (objectOptions.pageable && !quiet) startPagerIfLong();
        await writeTo(target(), text.replace(/\n?$/, '\n'));
        await pager?.flush();
      }
    },
    async report(value, rows, view) {
      if (isJsonFormat(format)) await output.object(value, () => '');
      else await output.list(rows, view);
    },
    heldReport<T>(view: TableView<T>, lists: readonly string[], groups: number): HeldReport<T> {
      const json = isJsonFormat(format);
      // --jq and --fields work on the whole object: its lists are kept in memory for object().
      const whole = json && (jq !== undefined || fields !== undefined);
      const indent = format === 'json' ? 2 : 0;
      const spools = new Spools();
      const kept = new Map(lists.map((l) => [l, [] as unknown[]]));
      const listSpools = new Map(lists.map((l) => [l, spools.spool()]));
      const groupSpools = Array.from({ length: json ? 0 : groups }, () => spools.spool());
      async function* heldRows(): AsyncGenerator<T> {
        for (const spool of groupSpools) for await (const line of spool.lines()) yield JSON.parse(line) as T;
      }
      return {
        items(list, values) {
          if (!json || values.length === 0) return;
          if (whole) kept.get(list)!.push(...values);
          else {
            const spool = listSpools.get(list)!;
            // A few at a time: one string for a whole batch would be a large object (see spool.ts).
            for (let i = 0; i < values.length; i += HELD_ELEMENTS) spool.writeBytes(jsonElementsBytes(values.slice(i, i + HELD_ELEMENTS), indent, spool.empty));
          }
        },
        rows(group, rows) {
          const spool = groupSpools[group];
          if (spool) for (const r of rows) spool.write(JSON.stringify(r) + '\n');
        },
        async end(head) {
          try {
            if (!json) await output.list(heldRows(), view);
            else if (whole) await output.object({ ...head, ...Object.fromEntries(kept) }, () => '');
            else {
              const out = target();
              const sink = new BatchingSink(out);
              const object = jsonObjectWriter(sink, indent);
              for (const [key, value] of Object.entries(head)) if (value !== undefined) await object.field(key, value);
              // stdout itself takes the held bytes as they are; a wrapper of it (a status line) takes text.
              for (const list of lists) await object.list(list, out === stdout ? listSpools.get(list)!.pieces() : listSpools.get(list)!.text());
              await object.end();
              await sink.end();
            }
          } finally {
            spools.discard();
          }
        },
        discard: () => spools.discard(),
      };
    },
    async document(value, { asIs = false } = {}) {
      // Shaped like any data: --fields picks from the object (or from each object of an array),
      // --jq runs once over the whole document.
      const pick = fields && !asIs ? fields : undefined;
      const shaped = pick ? (Array.isArray(value) ? value.map((v) => pickFields(v, pick)) : pickFields(value, pick)) : value;
      if (jq && !asIs) return writeJqLines(target(), () => jq.run(shaped));
      const readable = format === 'json' || format === 'table';
      await writeTo(target(), `${jsonText(shaped, readable ? 2 : undefined)}\n`);
    },
    async data(line) {
      await writeTo(target(), line + '\n');
    },
    footer(text) {
      if (format !== 'table' || quiet) return;
      // Never wider than the terminal: a long footer breaks between its parts; a part wider than
      // the terminal wraps as prose does, a command it ends in kept whole on a line of its own
      // (cut short, "socialpub posts view post_…" could not be copied).
      const width = stderr.columns || stdout.columns;
      const lines: string[] = [];
      for (const part of text.split(' · ')) {
        const last = lines.length - 1;
        if (last >= 0 && (!width || displayWidth(`${lines[last]} · ${part}`) <= width)) lines[last] = `${lines[last]} · ${part}`;
        else lines.push(...wrapProse(part, width).split('\n'));
      }
      // Paging, the footer belongs under the table on the same screen, not before it.
      (pager?.paging ? pager.sink : stderr).write(safe(lines.join('\n')) + '\n');
    },
    cut(text) {
      if (format !== 'table') message(text);
    },
    info(line) {
      if (!quiet) message(line);
    },
    notice: message,
    warn(line) {
      message(colors.yellow('warning: ') + line);
    },
    async spinner(text) {
      const spinner = await createSpinner(stderr, text, progress, colors);
      if (!options.status) return spinner;
      // What the spinner says is what a CI log's progress line says (no spinner is drawn there).
      const status = options.status;
      status(text);
      return { ...spinner, text: (t: string) => (status(t), spinner.text(t)) };
    },
    rowProgress() {
      // Shown whenever stderr is a terminal; when stdout is that terminal too, the rows themselves
      // show progress and a redrawn line would only flicker between them.
      const line = createProgressLine({ stderr, stdoutIsTTY: Boolean(stdout.isTTY), enabled: !quiet && Boolean(stderr.isTTY) && !stdout.isTTY, atExit: processExit });
      let last = -Infinity;
      return {
        update(rows, total) {
          const t = now();
          if (t - last < 100) return;
          last = t;
          const pct = total ? ` (${Math.min(100, Math.floor((rows / total) * 100))}%)` : '';
          line.update(`${formatCount(rows)}${total === undefined ? '' : ` / ${formatCount(total)}`} rows${pct}`);
        },
        done: () => line.done(),
      };
    },
    statusLine() {
      const line = createProgressLine({ stderr, stdoutIsTTY: Boolean(stdout.isTTY), enabled: !quiet && Boolean(stderr.isTTY), atExit: processExit });
      statusLine = line;
      return {
        update: (text) => line.update(safe(text)),
        clear: () => {
          line.done();
          if (statusLine === line) statusLine = undefined;
        },
      };
    },
    link,
    async close() {
      const p = pager;
      pager = undefined;
      await p?.close();
    },
  };
  return output;
}

/**
 * The raw strings --jq prints are server text like any other: their control characters are shown,
 * not obeyed, on a terminal and in a pipe alike (a pipe often ends in a CI log, which obeys colour
 * and other escapes). Exact data is what JSON is for: `--json`, or a filter that ends in `tojson`
 * (its escapes are kept, and a JSON reader reads them back to the same string).
 */
function shownSafe(program: JqProgram): JqProgram {
  const shown = (lines: readonly string[]) => lines.map(visible);
  const guarded = (run: () => string[]) => {
    try {
      return shown(run());
    } catch (err) {
      // A runtime error carries the lines printed before it (JqError, not imported: jq loads lazily).
      const before = (err as { lines?: unknown }).lines;
      if (Array.isArray(before)) (err as { lines: readonly string[] }).lines = shown(before as string[]);
      throw err;
    }
  };
  return {
    expression: program.expression,
    perRow: program.perRow,
    run: (value) => guarded(() => program.run(value)),
    runEach: (values) => guarded(() => program.runEach(values)),
  };
}
