// Spinners (ora) only when both stdout and stderr are terminals; otherwise a silent stand-in.
import type { Sink } from './writers.js';

export interface Spinner {
  text(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  stop(): void;
}

const silent: Spinner = { text() {}, succeed() {}, fail() {}, stop() {} };

export async function createSpinner(stream: Sink & { columns?: number }, text: string, enabled: boolean, color = true): Promise<Spinner> {
  // A terminal that reports no width (a pty without a size) makes ora redraw forever.
  if (!enabled || !stream.columns) return silent;
  const { default: ora } = await import('ora');
  const s = ora({ text, stream: stream as NodeJS.WritableStream, discardStdin: false, color: color ? 'cyan' : false }).start();
  return {
    text(t) {
      s.text = t;
    },
    succeed(t) {
      s.succeed(t);
    },
    fail(t) {
      s.fail(t);
    },
    stop() {
      s.stop();
    },
  };
}
