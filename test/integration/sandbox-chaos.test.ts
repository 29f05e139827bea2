// --chaos: every kind of fault happens, the sequence is reproducible with a seed, and a lost
// response means the work was committed even though the client heard nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { call, manualSandbox, text, type TestSandbox } from './sandbox-support.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** What a client sees for one request: the status, or how the connection failed. */
async function outcome(s: TestSandbox, path: string): Promise<string> {
  try {
    const r = await call(s, 'GET', path, { key: s.key('demo') });
    return r.status === 429 ? `429:${r.headers.get('retry-after')}` : String(r.status);
  } catch {
    return 'no-response';
  }
}

async function sequence(seed: number, n: number): Promise<string[]> {
  sb = await manualSandbox({ seed, chaos: 0.5, chaosSlowMs: 30, readLimit: 1000 });
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(await outcome(sb, '/v1/posts'));
  await sb.close();
  return out;
}

describe('chaos', () => {
  it('injects the same faults for the same requests with the same seed, other faults with another', async () => {
    const a = await sequence(7, 40);
    const b = await sequence(7, 40);
    const c = await sequence(8, 40);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    const faults = a.filter((o) => o !== '200').length;
    expect(faults).toBeGreaterThan(8);
    expect(faults).toBeLessThan(32);
  });

  it('produces every kind of fault: 500, reset, lost response, 429 with Retry-After 1, slow', async () => {
    sb = await manualSandbox({ seed: 3, chaos: 1, chaosSlowMs: 40, readLimit: 1000 });
    const seen = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const o = await outcome(sb, '/v1/posts');
      // Slow is told by the sandbox's log, not the wall clock (a busy machine makes any answer slow).
      const key = o === '200' && sb.requests.at(-1)?.fault === 'slow' ? 'slow' : o;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    expect(seen.get('500')).toBeGreaterThan(0);
    expect(seen.get('429:1')).toBeGreaterThan(0);
    expect(seen.get('no-response')).toBeGreaterThan(0);
    expect(seen.get('slow')).toBeGreaterThan(0);
    const faults = new Set(sb.requests.map((r) => r.fault));
    expect(faults).toEqual(new Set(['error', 'reset', 'lost', 'rate-limited', 'slow']));
    // A 500 from chaos still has the contract's error body and headers.
    const errorEntry = sb.requests.find((r) => r.fault === 'error')!;
    expect(errorEntry.status).toBe(500);
    expect(sb.requests.filter((r) => r.fault === 'reset' || r.fault === 'lost').every((r) => r.status === 0)).toBe(true);
  });

  it('commits the work of a request whose response is lost', async () => {
    // Find a seed whose first request meets "lost", then send a write as that request.
    for (let seed = 1; seed < 200; seed++) {
      sb = await manualSandbox({ seed, chaos: 1, chaosSlowMs: 1 });
      const key = sb.key('demo');
      let failed = false;
      try {
        await call(sb, 'POST', '/v1/posts', { key, body: { payloads: text(['bluesky']) }, headers: { 'idempotency-key': 'lost-1' } });
      } catch {
        failed = true;
      }
      if (sb.requests[0]?.fault !== 'lost') {
        await sb.close();
        continue;
      }
      expect(failed).toBe(true);
      // The retry with the same key replays the committed post instead of creating a second one.
      let retry;
      for (let i = 0; i < 50 && retry?.status !== 201; i++) {
        try {
          retry = await call(sb, 'POST', '/v1/posts', { key, body: { payloads: text(['bluesky']) }, headers: { 'idempotency-key': 'lost-1' } });
        } catch {
          // another injected fault: try again
        }
      }
      expect(retry?.status).toBe(201);
      expect(retry?.headers.get('idempotent-replayed')).toBe('true');
      return;
    }
    throw new Error('no seed below 200 starts with a lost response');
  });

  it('leaves requests alone when chaos is 0 (the default)', async () => {
    sb = await manualSandbox({ readLimit: 1000 });
    for (let i = 0; i < 30; i++) expect(await outcome(sb, '/v1/posts')).toBe('200');
  });
});
