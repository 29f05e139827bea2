// The bulk pacer on an injected clock: windows, Retry-After, --max-wait, and which failures end the run.
import { describe, expect, it } from 'vitest';
import { AuthError, IdempotencyKeyReusedError, NetworkError, RateLimitError, ServerError, ValidationError } from '../../src/client/errors.js';
import { MAX_CONSECUTIVE_TRANSIENT, Pacer } from '../../src/posts/bulk/pacer.js';

function pacer(maxWaitMs?: number) {
  const clock = { t: 1_000_000 };
  const waits: Array<{ ms: number; reason: string }> = [];
  const p = new Pacer({
    now: () => clock.t,
    sleep: async (ms) => {
      clock.t += ms;
    },
    maxWaitMs,
    onWait: (until, reason) => waits.push({ ms: until - clock.t, reason }),
    formatTime: (t) => `T${t}`,
  });
  return { p, clock, waits };
}

describe('bulk pacer', () => {
  it('waits out a window the last response announced as used up, before the next send', async () => {
    const { p, waits } = pacer();
    p.noteRateLimit({ limit: 10, remaining: 0, resetSeconds: 30 });
    const got = await p.attempt(async () => 'sent');
    expect(got).toEqual({ kind: 'ok', value: 'sent' });
    expect(waits).toEqual([{ ms: 30_000, reason: 'rate limit: no writes left in this window' }]);
    // The window is spent once: the next send does not wait again.
    await p.attempt(async () => 'again');
    expect(waits).toHaveLength(1);
  });

  it('a 429 is sent again once its Retry-After has passed', async () => {
    const { p, clock, waits } = pacer();
    let calls = 0;
    const got = await p.attempt(async () => {
      if (calls++ === 0) throw new RateLimitError('rate limited', { retryAt: clock.t + 12_000 });
      return 'ok';
    });
    expect(got).toEqual({ kind: 'ok', value: 'ok' });
    expect(calls).toBe(2);
    expect(waits).toEqual([{ ms: 12_000, reason: 'rate limit: Retry-After' }]);
  });

  it('a wait beyond --max-wait stops the run with the time to come back', async () => {
    const { p, clock } = pacer(5_000);
    const until = clock.t + 60_000;
    const got = await p.attempt(async () => {
      throw new RateLimitError('rate limited', { retryAt: until });
    });
    expect(got.kind).toBe('stop');
    const err = (got as { error: RateLimitError }).error;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.message).toBe(`rate limited: the next write is allowed at T${until}, beyond --max-wait`);
    expect(err.retryAt).toBe(until);
  });

  it('sorts failures: a reused key is done, auth stops, a validation error fails its row only', async () => {
    const { p } = pacer();
    expect(await p.attempt(() => Promise.reject(new IdempotencyKeyReusedError('reused')))).toEqual({ kind: 'reused' });
    expect((await p.attempt(() => Promise.reject(new AuthError('bad key')))).kind).toBe('stop');
    const invalid = await p.attempt(() => Promise.reject(new ValidationError('no', { code: 'INVALID', issues: [{ path: 'text', message: 'too long' }], requestId: 'req_1' })));
    expect(invalid).toMatchObject({ kind: 'failed', transient: false, info: { code: 'INVALID', message: 'no (text: too long)', requestId: 'req_1' } });
  });

  it(`stops after ${MAX_CONSECUTIVE_TRANSIENT} transient failures in a row; a success resets the count`, async () => {
    const { p } = pacer();
    const fail = () => p.attempt(() => Promise.reject(new ServerError('502')));
    for (let i = 1; i < MAX_CONSECUTIVE_TRANSIENT; i++) expect(p.tooManyFailures(await fail())).toBe(false);
    expect(p.tooManyFailures(await p.attempt(async () => 'ok'))).toBe(false);
    for (let i = 1; i < MAX_CONSECUTIVE_TRANSIENT; i++) expect(p.tooManyFailures(await fail())).toBe(false);
    const last = await p.attempt(() => Promise.reject(new NetworkError('reset')));
    expect(last).toMatchObject({ kind: 'failed', transient: true, info: { code: 'NETWORK' } });
    expect(p.tooManyFailures(last)).toBe(true);
  });
});
