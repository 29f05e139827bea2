// Hands events to the listener's consumers without letting a consumer's exception escape into
// the request handler (it would turn into a 500 for the sender, or stop the forward queue).
// The exception is not swallowed, though: a renderer bug would otherwise drop events without a
// word. It is re-emitted as 'error' when someone listens for that (the `listen` command stops
// and reports it), and otherwise thrown on the next tick, where it fails loudly like any bug.
import type { EventEmitter } from 'node:events';
import type { ListenerEvents } from './types.js';

export type Emit = <K extends Exclude<keyof ListenerEvents, 'error'>>(name: K, arg: ListenerEvents[K][0]) => void;

export function safeEmitter(emitter: EventEmitter<ListenerEvents>): Emit {
  const raise = (err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    if (emitter.listenerCount('error') === 0) {
      process.nextTick(() => {
        throw error;
      });
      return;
    }
    try {
      emitter.emit('error', error);
    } catch (again) {
      // The error handler itself failed: nothing is left to report to but the process.
      process.nextTick(() => {
        throw again;
      });
    }
  };
  return (name, arg) => {
    try {
      (emitter.emit as (n: typeof name, a: typeof arg) => boolean)(name, arg);
    } catch (err) {
      raise(err);
    }
  };
}
