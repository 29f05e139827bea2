// The wait loop on an injected clock: a scripted results source (what the service would list at
// each poll) and a sleep that only moves the clock.
import { describe, expect, it } from 'vitest';
import { AuthError, DeadlineError, NetworkError, NotFoundError, ServerError } from '../../src/client/errors.js';
import type { ApiClient } from '../../src/client/types.js';
import type { Post } from '../../src/wire/schemas.js';
import { lookUpWaitTarget, notWaitable, outageRider, pollUntilReported, type ResultsSource, type WaitInput } from '../../src/results/wait.js';
import { backoffMs } from '../../src/results/wait-state.js';
import type { PostResult } from '../../src/wire/schemas.js';

const row = (id: string, postId: string, platform: string, success = true): PostResult => ({ id, post_id: postId, platform, success });

/** Results that appear at given clock times; each poll lists what exists by then. */
function scripted(appear: Array<{ at: number; row: PostResult }>, clock: { t: number }) {
  const queries: Array<readonly string[] | undefined> = [];
  /** The deadline each poll's requests were given, and the clock time each poll started. */
  const deadlines: Array<number | undefined> = [];
  const polledAt: number[] = [];
  const client: ResultsSource = {
    results: {
      iterate: (query, options) => {
        queries.push(query?.postId);
        deadlines.push(options?.deadline);
        polledAt.push(clock.t);
        const rows = appear.filter((a) => a.at <= clock.t && (query?.postId ?? []).includes(a.row.post_id)).map((a) => a.row);
        return (async function* () {
          yield* rows;
        })();
      },
    },
  };
  return { client, queries, deadlines, polledAt };
}

function input(over: Partial<WaitInput> & Pick<WaitInput, 'client'>, clock: { t: number }, slept: number[]): WaitInput {
  return {
    posts: [{ postId: 'post_a', targets: ['bluesky', 'threads'] }],
    deadline: clock.t + 600_000,
    now: () => clock.t,
    sleep: async (ms) => {
      slept.push(ms);
      clock.t += ms;
    },
    ...over,
  };
}

describe('pollUntilReported', () => {
  it('polls with backoff until every target reported, telling each poll', async () => {
    const clock = { t: 0 };
    const { client } = scripted([{ at: 2_000, row: row('r1', 'post_a', 'bluesky') }, { at: 20_000, row: row('r2', 'post_a', 'threads', false) }], clock);
    const slept: number[] = [];
    const polls: string[] = [];
    const out = await pollUntilReported(input({ client, onPoll: (s) => void polls.push(`${s.reported}/${s.expected}`) }, clock, slept));
    expect(out.timedOut).toBe(false);
    expect(out.state.done).toBe(true);
    expect(out.state.failures.map((f) => f.id)).toEqual(['r2']);
    expect(slept.slice(0, 3)).toEqual([backoffMs(0), backoffMs(1), backoffMs(2)]);
    expect(polls[0]).toBe('0/2');
    expect(polls.at(-1)).toBe('2/2');
    expect(polls).toHaveLength(slept.length + 1);
    expect(clock.t).toBeGreaterThanOrEqual(20_000);
  });

  it('stops at the deadline, never sleeping past it; every poll starts before it and passes it on to its requests', async () => {
    const clock = { t: 0 };
    const { client, deadlines, polledAt } = scripted([], clock);
    const slept: number[] = [];
    const out = await pollUntilReported(input({ client, deadline: 50_000 }, clock, slept));
    expect(out.timedOut).toBe(true);
    expect(out.state.missing).toEqual(['bluesky', 'threads']);
    expect(clock.t).toBe(50_000);
    expect(slept.reduce((a, b) => a + b, 0)).toBe(50_000);
    expect(slept.every((ms) => ms <= 15_000)).toBe(true);
    expect(polledAt.length).toBeGreaterThan(3);
    expect(Math.max(...polledAt)).toBeLessThan(50_000);
    expect(new Set(deadlines)).toEqual(new Set([50_000]));
  });

  it('a poll the deadline cut short after the service had answered: timed out, with what the last poll saw', async () => {
    const clock = { t: 0 };
    let polls = 0;
    const client: ResultsSource = {
      results: {
        iterate: () =>
          (async function* () {
            if (++polls === 1) yield row('r1', 'post_a', 'bluesky');
            else {
              clock.t = 30_000; // the service took the rest of the wait, and the client gave up at the deadline
              throw new DeadlineError('did not answer: no response before the deadline');
            }
          })(),
      },
    };
    const slept: number[] = [];
    const out = await pollUntilReported(input({ client, deadline: 30_000 }, clock, slept));
    expect(out.timedOut).toBe(true);
    expect(out.state.reported).toBe(1);
    expect(out.state.missing).toEqual(['threads']);
    expect(polls).toBe(2);
  });

  it('stretches the pause to the read budget the RateLimit headers announce', async () => {
    const clock = { t: 0 };
    const { client } = scripted([{ at: 1, row: row('r1', 'post_a', 'bluesky') }, { at: 1, row: row('r2', 'post_a', 'threads') }], clock);
    const slept: number[] = [];
    await pollUntilReported(input({ client, rate: () => ({ limit: 10, remaining: 0, resetSeconds: 40 }) }, clock, slept));
    expect(slept).toEqual([40_000]);
  });

  it('several posts in one request per poll: done when every post is, missing targets named with their post', async () => {
    const clock = { t: 0 };
    const { client, queries } = scripted([{ at: 0, row: row('r1', 'post_a', 'bluesky') }, { at: 0, row: row('r2', 'post_b', 'x', false) }, { at: 5_000, row: row('r3', 'post_a', 'threads') }], clock);
    const slept: number[] = [];
    const states: Array<{ reported: number; expected: number; missing: string[] }> = [];
    const out = await pollUntilReported(
      input(
        {
          client,
          posts: [
            { postId: 'post_a', targets: ['bluesky', 'threads'] },
            { postId: 'post_b', targets: ['x'] },
          ],
          onPoll: (s) => void states.push({ reported: s.reported, expected: s.expected, missing: s.missing }),
        },
        clock,
        slept,
      ),
    );
    expect(queries[0]).toEqual(['post_a', 'post_b']);
    expect(states[0]).toEqual({ reported: 2, expected: 3, missing: ['threads (post_a)'] });
    expect(out.state.done).toBe(true);
    expect(out.state.failures.map((f) => f.id)).toEqual(['r2']);
    expect(out.perPost.get('post_a')!.done).toBe(true);
    expect(out.perPost.get('post_b')!.failures).toHaveLength(1);
  });
});

describe('riding out an outage', () => {
  it('reads again through network failures and 5xx until it succeeds, saying once when it starts and once when it ends', async () => {
    const clock = { t: 0 };
    const told: string[] = [];
    const failures = [new NetworkError('connect ECONNREFUSED'), new ServerError('the service failed (503)'), new NetworkError('connect ECONNREFUSED')];
    const ride = outageRider({
      deadline: 600_000,
      now: () => clock.t,
      sleep: async (ms) => void (clock.t += ms),
      onOutage: (err, deadline) => void told.push(`down: ${err.message} until ${deadline}`),
      onBack: () => void told.push('back'),
    });
    let reads = 0;
    const value = await ride(async () => {
      const err = failures[reads++];
      if (err) throw err;
      return 'rows';
    });
    expect(value).toBe('rows');
    expect(reads).toBe(4);
    expect(told).toEqual(['down: connect ECONNREFUSED until 600000', 'back']);
    expect(clock.t).toBeGreaterThan(0);
  });

  it('no read starts at the deadline: the sleep that reaches it ends the ride with the last failure', async () => {
    const clock = { t: 0 };
    const readsAt: number[] = [];
    const slept: number[] = [];
    const ride = outageRider({ deadline: 10_000, now: () => clock.t, sleep: async (ms) => void (slept.push(ms), (clock.t += ms)) });
    const last = new ServerError('the service failed (503)');
    await expect(
      ride(() => {
        readsAt.push(clock.t);
        return Promise.reject(readsAt.length === 1 ? new NetworkError('connect ECONNREFUSED') : last);
      }),
    ).rejects.toBe(last);
    expect(clock.t).toBe(10_000);
    expect(slept.reduce((a, b) => a + b, 0)).toBe(10_000);
    expect(readsAt.length).toBeGreaterThan(2);
    expect(Math.max(...readsAt)).toBeLessThan(10_000);
  });

  it('a read cut short at the deadline ends the ride, even when the clock reads a moment before it', async () => {
    const told: string[] = [];
    let reads = 0;
    const ride = outageRider({ deadline: 10_000, now: () => 9_999, sleep: async () => undefined, onOutage: () => void told.push('down') });
    await expect(ride(() => (reads++, Promise.reject(new DeadlineError('no response before the deadline'))))).rejects.toBeInstanceOf(DeadlineError);
    expect(reads).toBe(1);
    expect(told).toEqual([]);
  });

  it('a read cut short at the deadline during an outage ends the ride with the outage, not the cut', async () => {
    const clock = { t: 0 };
    const outage = new ServerError('the service failed (503)');
    let reads = 0;
    const ride = outageRider({ deadline: 10_000, now: () => clock.t, sleep: async (ms) => void (clock.t += ms) });
    await expect(ride(() => (reads++, Promise.reject(reads === 1 ? outage : new DeadlineError('not sent: its deadline had passed'))))).rejects.toBe(outage);
    expect(reads).toBe(2);
  });

  it('gives up with the last failure at the deadline; an error that is not an outage is thrown at once', async () => {
    const clock = { t: 0 };
    const ride = outageRider({ deadline: 30_000, now: () => clock.t, sleep: async (ms) => void (clock.t += ms) });
    await expect(ride(() => Promise.reject(new NetworkError('connect ECONNREFUSED')))).rejects.toBeInstanceOf(NetworkError);
    expect(clock.t).toBe(30_000);
    const before = clock.t;
    await expect(outageRider({ deadline: 90_000, now: () => clock.t, sleep: async (ms) => void (clock.t += ms) })(() => Promise.reject(new AuthError('bad key')))).rejects.toBeInstanceOf(AuthError);
    expect(clock.t).toBe(before);
  });
});

describe('notWaitable', () => {
  const post = (over: Partial<Post>): Post => ({ id: 'post_a', status: 'scheduled', payloads: { bluesky: {} }, ...over });
  it('a draft, or a scheduled post due after the deadline; a post due before it or already published is waitable', () => {
    const deadline = Date.parse('2026-12-01T10:00:00Z');
    expect(notWaitable(post({ status: 'draft', scheduledAt: null }), deadline)?.reason).toBe('draft');
    expect(notWaitable(post({ scheduledAt: '2026-12-01T10:00:01Z' }), deadline)).toMatchObject({ reason: 'due-after-deadline', dueAt: deadline + 1000 });
    expect(notWaitable(post({ scheduledAt: '2026-12-01T10:00:00Z' }), deadline)).toBeUndefined();
    expect(notWaitable(post({ status: 'published', scheduledAt: '2026-12-02T00:00:00Z' }), deadline)).toBeUndefined();
  });
});

describe('lookUpWaitTarget (results wait and wait_for_results)', () => {
  const deadline = Date.parse('2026-12-01T10:00:00Z');
  /** posts.get answering from `posts`, 404 NOT_FOUND for any other id; the deadline each read was given. */
  function service(posts: Post[]) {
    const asked: Array<number | undefined> = [];
    const client = {
      posts: {
        get: async (id: string, options?: { deadline?: number }) => {
          asked.push(options?.deadline);
          const post = posts.find((p) => p.id === id);
          if (!post) throw new NotFoundError(`no post ${id}`, { status: 404, code: 'NOT_FOUND' });
          return { data: post };
        },
      },
    } as unknown as Pick<ApiClient, 'posts'>;
    return { client, asked };
  }

  it('a post found: its platforms are the targets, read by lookUpBy, judged against the wait\'s deadline', async () => {
    const { client, asked } = service([{ id: 'post_a', status: 'scheduled', scheduledAt: '2026-12-01T09:00:00Z', payloads: { bluesky: {}, threads: {} } }]);
    const found = await lookUpWaitTarget(client, 'post_a', { lookUpBy: deadline - 5000, deadline });
    expect(found).toMatchObject({ found: true, target: { postId: 'post_a', targets: ['bluesky', 'threads'] }, blocked: undefined });
    expect(asked).toEqual([deadline - 5000]);
  });

  it('a draft, or a post due after the deadline, comes back with why it cannot report', async () => {
    const { client } = service([
      { id: 'post_d', status: 'draft', scheduledAt: null, payloads: { bluesky: {} } },
      { id: 'post_l', status: 'scheduled', scheduledAt: '2026-12-01T10:00:01Z', payloads: { bluesky: {} } },
      { id: 'post_s', status: 'scheduled', scheduledAt: '2026-12-01T09:59:30Z', payloads: { bluesky: {} } },
    ]);
    expect(await lookUpWaitTarget(client, 'post_d', { lookUpBy: deadline, deadline })).toMatchObject({ found: true, blocked: { reason: 'draft' } });
    // Due after the wait's deadline, even though the look-up itself had to end sooner.
    expect(await lookUpWaitTarget(client, 'post_l', { lookUpBy: deadline - 60_000, deadline })).toMatchObject({ found: true, blocked: { reason: 'due-after-deadline', dueAt: deadline + 1000 } });
    // Due after the look-up must end but before the wait does: waitable.
    expect(await lookUpWaitTarget(client, 'post_s', { lookUpBy: deadline - 60_000, deadline })).toMatchObject({ found: true, blocked: undefined });
  });

  it('no such post is found: false; any other failure is thrown for the caller to ride out or report', async () => {
    const { client } = service([]);
    expect(await lookUpWaitTarget(client, 'post_x', { lookUpBy: deadline, deadline })).toEqual({ found: false });
    const down = { posts: { get: async () => Promise.reject(new ServerError('down', { status: 503 })) } } as unknown as Pick<ApiClient, 'posts'>;
    await expect(lookUpWaitTarget(down, 'post_x', { lookUpBy: deadline, deadline })).rejects.toBeInstanceOf(ServerError);
  });
});

