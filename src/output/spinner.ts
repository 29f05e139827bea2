// Spinners (ora) only when both stdout and stderr are terminals; otherwise a silent stand-in.
import type { Sink } from './writers.js';

export interface Spinner {
  text(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  stop(): void;
}

const silent: Spinner = { text() {}, succeed() {}, fail() {}, stop() {} };

export async function createSpinner(stream: Sink, text: string, enabled: boolean): Promise<Spinner> {
  if (!enabled) return silent;
  const { default: ora } = await import('ora');
  const s = ora({ text, stream: stream as NodeJS.WritableStream, discardStdin: false }).start();
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
