// The listener's emit: a consumer's exception never reaches the request handler, and is never
// swallowed either: it goes to 'error' handlers, or is thrown on the next tick.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safeEmitter } from '../../src/listen/outcomes.js';
import type { DuplicateEvent, ListenerEvents } from '../../src/listen/types.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('safeEmitter', () => {
  it('delivers events to every consumer', () => {
    const emitter = new EventEmitter<ListenerEvents>();
    const got: DuplicateEvent[] = [];
    emitter.on('duplicate', (d) => got.push(d));
    safeEmitter(emitter)('duplicate', { webhookId: 'msg_1' });
    expect(got).toEqual([{ webhookId: 'msg_1' }]);
  });

  it("hands a consumer's exception to 'error' handlers, without throwing at the emitter", () => {
    const emitter = new EventEmitter<ListenerEvents>();
    const errors: Error[] = [];
    emitter.on('error', (err) => errors.push(err));
    emitter.on('duplicate', () => {
      throw new Error('renderer bug');
    });
    expect(() => safeEmitter(emitter)('duplicate', { webhookId: 'msg_1' })).not.toThrow();
    expect(errors.map((e) => e.message)).toEqual(['renderer bug']);
  });

  it("without an 'error' handler, throws it on the next tick (where it fails loudly) rather than swallowing it", () => {
    const ticks: Array<() => void> = [];
    vi.spyOn(process, 'nextTick').mockImplementation(((fn: () => void) => void ticks.push(fn)) as typeof process.nextTick);
    const emitter = new EventEmitter<ListenerEvents>();
    emitter.on('duplicate', () => {
      throw new Error('renderer bug');
    });
    expect(() => safeEmitter(emitter)('duplicate', { webhookId: 'msg_1' })).not.toThrow();
    expect(ticks).toHaveLength(1);
    expect(() => ticks[0]!()).toThrow('renderer bug');
  });

  it("an 'error' handler that throws is thrown on the next tick too", () => {
    const ticks: Array<() => void> = [];
    vi.spyOn(process, 'nextTick').mockImplementation(((fn: () => void) => void ticks.push(fn)) as typeof process.nextTick);
    const emitter = new EventEmitter<ListenerEvents>();
    emitter.on('error', () => {
      throw new Error('handler bug');
    });
    emitter.on('duplicate', () => {
      throw new Error('renderer bug');
    });
    safeEmitter(emitter)('duplicate', { webhookId: 'msg_1' });
    expect(() => ticks[0]!()).toThrow('handler bug');
  });
});
