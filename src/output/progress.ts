// A one-line progress display on stderr ("199/300 · scheduling row 200") that never ends up in the
// middle of data: when stdout is the same terminal, the line is cleared before data is written and
// drawn again after it. It shows whenever stderr is a terminal, also when stdout is redirected, and
// a summary always starts at the beginning of a line of its own. Spinners (ora) show only when
// both stdout and stderr are terminals; otherwise a silent stand-in takes their calls.
import { cutToWidth } from './width.js';
import type { Sink } from './writers.js';
import { plainColors, type Colors } from './colors.js';

/** Carriage return, then erase the whole line. */
export const CLEAR_LINE = '\r\u001b[2K';

type TerminalSink = Sink & { isTTY?: boolean; columns?: number };

export interface ProgressLineOptions {
  stderr: TerminalSink;
  /** stdout is a terminal too (the same screen): data must not land on the progress line. */
  stdoutIsTTY: boolean;
  /** Default: stderr is a terminal. */
  enabled?: boolean;
  /**
   * Registers a last clean-up for a process that exits with the line still shown (`… | head`
   * ends the program at once); returns how to unregister it.
   */
  atExit?: (cleanUp: () => void) => () => void;
}

/** atExit for the real process: the line is erased before the shell's prompt is drawn. */
export const processExit = (cleanUp: () => void): (() => void) => {
  process.once('exit', cleanUp);
  return () => process.removeListener('exit', cleanUp);
};

export interface ProgressLine {
  readonly enabled: boolean;
  /** Shows this text as the progress line (cut to the terminal width). */
  update(text: string): void;
  /** Removes the line (before data is written to the same terminal). */
  clear(): void;
  /** Draws the last text again (after data was written). */
  redraw(): void;
  /** A stdout sink that clears the line before each write and redraws it after a full line. */
  wrap(stdout: TerminalSink): TerminalSink;
  /** A message on stderr (warning, hint) without mixing it into the progress line. */
  log(line: string): void;
  /** Removes the progress line for good; the summary, if any, goes on a line of its own. */
  done(summary?: string): void;
}

export function createProgressLine(options: ProgressLineOptions): ProgressLine {
  const { stderr } = options;
  const enabled = options.enabled ?? Boolean(stderr.isTTY);
  let text = '';
  let shown = false;
  let finished = false;
  let unregister: (() => void) | undefined;

  const draw = () => {
    if (!enabled || finished || text === '') return;
    // One column short of the width: a line that fills the last column wraps on some terminals,
    // and then \r no longer reaches its start.
    const width = stderr.columns && stderr.columns > 1 ? stderr.columns - 1 : 79;
    stderr.write(CLEAR_LINE + cutToWidth(text, width));
    shown = true;
    unregister ??= options.atExit?.(clear);
  };
  const clear = () => {
    if (!shown) return;
    stderr.write(CLEAR_LINE);
    shown = false;
  };

  const line: ProgressLine = {
    enabled,
    update(next) {
      text = next.replace(/[\r\n]+/g, ' ');
      draw();
    },
    clear,
    redraw: draw,
    wrap(stdout) {
      if (!enabled || !options.stdoutIsTTY) return stdout;
      return {
        ...(stdout.isTTY !== undefined ? { isTTY: stdout.isTTY } : {}),
        ...(stdout.columns !== undefined ? { columns: stdout.columns } : {}),
        write(chunk: string) {
          clear();
          const ok = stdout.write(chunk);
          if (chunk.endsWith('\n')) draw();
          return ok;
        },
        ...(stdout.once ? { once: (event: 'drain', listener: () => void) => stdout.once!(event, listener) } : {}),
      };
    },
    log(message) {
      clear();
      stderr.write(message.endsWith('\n') ? message : message + '\n');
      draw();
    },
    done(summary) {
      clear();
      finished = true;
      unregister?.();
      // After Ctrl-C the terminal has echoed "^C" where the cursor was: start afresh.
      if (summary !== undefined) stderr.write((enabled ? CLEAR_LINE : '') + (summary.endsWith('\n') ? summary : summary + '\n'));
    },
  };
  return line;
}

export interface Spinner {
  text(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  /** Takes the spinner off the screen (for lines of its own); resume() puts it back. */
  stop(): void;
  resume(): void;
}

const silent: Spinner = { text() {}, succeed() {}, fail() {}, stop() {}, resume() {} };

export async function createSpinner(stream: Sink & { columns?: number }, text: string, enabled: boolean, colors: Colors = plainColors): Promise<Spinner> {
  // A terminal that reports no width (a pty without a size) makes ora redraw forever.
  if (!enabled || !stream.columns) return silent;
  const { default: ora } = await import('ora');
  const s = ora({ text, stream: stream as NodeJS.WritableStream, discardStdin: false, color: colors.enabled ? 'cyan' : false }).start();
  // The program's own ✓ and ✗ in the program's colours: ora's succeed/fail draw ✔ and ✖, coloured even under NO_COLOR.
  return {
    text(t) {
      s.text = t;
    },
    succeed(t) {
      s.stopAndPersist({ symbol: colors.green('✓'), ...(t !== undefined ? { text: t } : {}) });
    },
    fail(t) {
      s.stopAndPersist({ symbol: colors.red('✗'), ...(t !== undefined ? { text: t } : {}) });
    },
    stop() {
      s.stop();
    },
    resume() {
      if (!s.isSpinning) s.start();
    },
  };
}
