// A pager for long output on a terminal, as git and gh do it: SOCIALPUB_PAGER, then PAGER, else
// `less -FRX` (F: quit when it fits one screen, R: keep colours, X: leave the text on screen).
// It starts only once the output is taller than the screen (pagerWhenLong), whatever the pager.
// The command runs through the shell (pager settings are shell words, `less -S`), and data goes
// only through its stdin. When the user quits early the rest of the output is dropped without an
// error (EPIPE), and Ctrl-C stops producing and lets the pager end the run.
import { childEnv } from './child-env.js';
import { writeTo, type Sink } from './writers.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The shell command to page with, or undefined when paging is off by choice. */
export function pagerCommand(env: Env): string | undefined {
  const chosen = env.SOCIALPUB_PAGER !== undefined ? env.SOCIALPUB_PAGER : env.PAGER !== undefined ? env.PAGER : 'less -FRX';
  const command = chosen.trim();
  // `SOCIALPUB_PAGER=` (empty) and `cat` mean "no pager", as for git and gh.
  if (command === '' || command === 'cat') return undefined;
  return command;
}

export interface PagerOptions {
  env: Env;
  stdoutIsTTY: boolean;
  /** --no-pager */
  noPager?: boolean;
  /** Where output goes when there is no pager. */
  stdout: Sink & { isTTY?: boolean; columns?: number };
  /** Ctrl-C source; default: this process. */
  signals?: Pick<NodeJS.Process, 'on' | 'off'>;
}

export interface Pager {
  /** Where to write: the pager's stdin, or stdout when not paging. */
  readonly sink: Sink & { isTTY?: boolean; columns?: number };
  readonly paging: boolean;
  /** Aborted when the pager is gone (the user quit) or Ctrl-C was pressed: stop producing. */
  readonly signal: AbortSignal;
  /** Ctrl-C was pressed while paging (the command should exit 130 once closed). */
  readonly interrupted: boolean;
  /** Ends the pager's input and waits until the user has left it. */
  close(): Promise<void>;
}

export function startPager(options: PagerOptions): Pager {
  const controller = new AbortController();
  const command = options.noPager || !options.stdoutIsTTY ? undefined : pagerCommand(options.env);
  if (!command) {
    return { sink: options.stdout, paging: false, signal: controller.signal, interrupted: false, close: async () => {} };
  }

  const env = childEnv(options.env, { LESS: options.env.LESS ?? 'FRX', LV: options.env.LV ?? '-c' });
  // Loaded here, not imported: child_process costs start-up time that most runs never use.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env });
  const signals = options.signals ?? process;
  let gone = false;
  let interrupted = false;
  const waitingForDrain = new Set<() => void>();
  const exited = new Promise<void>((resolve) => {
    const done = () => {
      gone = true;
      controller.abort();
      // A writer waiting for 'drain' would wait forever once the pager is gone.
      for (const fn of waitingForDrain) fn();
      waitingForDrain.clear();
      signals.off('SIGINT', onInterrupt);
      resolve();
    };
    child.once('exit', done);
    // The shell itself could not start: nothing will read; treat it as a pager that quit.
    child.once('error', done);
  });
  // EPIPE (the user quit before reading everything) is how a pager says "enough", not an error.
  child.stdin.on('error', () => {});

  const onInterrupt = () => {
    // The pager got the same Ctrl-C (one process group) and handles it; we stop producing and
    // let it show what it has until the user quits.
    interrupted = true;
    controller.abort();
    child.stdin.end();
  };
  signals.on('SIGINT', onInterrupt);

  const stdin = child.stdin;
  const sink: Pager['sink'] = {
    isTTY: true,
    ...(options.stdout.columns !== undefined ? { columns: options.stdout.columns } : {}),
    write(chunk: string) {
      if (gone || stdin.writableEnded || stdin.destroyed) return true;
      return stdin.write(chunk);
    },
    once(_event: 'drain', listener: () => void) {
      if (gone) {
        queueMicrotask(listener);
        return sink;
      }
      const fire = () => {
        waitingForDrain.delete(fire);
        stdin.off('drain', fire);
        listener();
      };
      waitingForDrain.add(fire);
      stdin.once('drain', fire);
      return sink;
    },
  };

  return {
    sink,
    paging: true,
    signal: controller.signal,
    get interrupted() {
      return interrupted;
    },
    async close() {
      if (!stdin.writableEnded) stdin.end();
      await exited;
    },
  };
}

export interface LazyPager extends Pager {
  /**
   * The listing is complete: what is held (it fits the screen) goes to stdout now, so that lines
   * written to stderr after it come after it. Later output still starts the pager once the whole
   * of it is taller than the screen.
   */
  flush(): Promise<void>;
}

/**
 * A pager that starts only once the output is taller than the screen (`rows`, minus a line for
 * the footer and one for the prompt). Shorter output goes straight to stdout: a pager started for
 * it shows nothing a screen does not, and one that clears the screen or waits for a key (`less`
 * without -F, `more`) would hide or garble the notes written to stderr around it.
 */
export function pagerWhenLong(options: PagerOptions & { rows: number | undefined }): LazyPager {
  const room = (options.rows ?? 0) - 2;
  if (room <= 0 || options.noPager || !options.stdoutIsTTY || pagerCommand(options.env) === undefined) {
    // Onto the pager itself: a copy would freeze its `interrupted` getter.
    return Object.assign(startPager(options), { flush: async () => {} });
  }
  let held: string[] = [];
  let lines = 0;
  let real: Pager | undefined;
  const idle = new AbortController();
  const sink: Pager['sink'] = {
    isTTY: true,
    ...(options.stdout.columns !== undefined ? { columns: options.stdout.columns } : {}),
    write(chunk: string) {
      if (real) return real.sink.write(chunk);
      held.push(chunk);
      for (let at = chunk.indexOf('\n'); at >= 0; at = chunk.indexOf('\n', at + 1)) lines++;
      if (lines <= room) return true;
      real = startPager(options);
      const text = held.join('');
      held = [];
      return real.sink.write(text);
    },
    once(event: 'drain', listener: () => void) {
      if (real?.sink.once) real.sink.once(event, listener);
      else queueMicrotask(listener);
      return sink;
    },
  };
  const flush = async () => {
    if (real || held.length === 0) return;
    const text = held.join('');
    held = [];
    await writeTo(options.stdout, text);
  };
  return {
    sink,
    get paging() {
      return real !== undefined;
    },
    get signal() {
      return real?.signal ?? idle.signal;
    },
    get interrupted() {
      return real?.interrupted ?? false;
    },
    flush,
    async close() {
      await flush();
      await real?.close();
    },
  };
}
