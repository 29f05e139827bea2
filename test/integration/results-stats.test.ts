// Stats over real HTTP: the client's rows through the stats counter, checked against an independent
// count of the rows read over plain HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import type { ApiClient } from '../../src/client/types.js';
import { parseWindow, selectWindow } from '../../src/results/since.js';
import { STATS_BY, type StatsBy } from '../../src/results/stats.js';
import { computeStats } from '../helpers/stats.js';
import type { ManualClock } from '../../src/sandbox/clock.js';
import type { PostResult } from '../../src/wire/schemas.js';
import { allResults, keyOf, sandboxFor, START, type Sandbox } from './results-support.js';

/** The oracle: per key, [succeeded, failed], written without the module's code. */
function tally(rows: PostResult[], by: StatsBy): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const r of rows) {
    const key =
      by === 'platform' ? r.platform! : by === 'post' ? r.post_id : by === 'account' ? (r.social_account_id ?? '(no account)') : r.success ? '(succeeded)' : r.error!.code;
    out[key] ??= [0, 0];
    out[key][r.success ? 0 : 1]++;
  }
  return out;
}

describe('results stats against the sandbox', () => {
  let sb: Sandbox & { clock: ManualClock };
  let client: ApiClient;
  let oracle: PostResult[];

  beforeAll(async () => {
    sb = await sandboxFor({ fixtures: 2500, failureRate: 0.3, seed: 21 });
    client = createClient({ baseUrl: sb.url, apiKey: keyOf(sb, 'demo'), maxRetries: 0 });
    oracle = await allResults(sb, keyOf(sb, 'demo'));
  });
  afterAll(async () => {
    await client?.close();
    await sb?.close();
  });

  it.each(STATS_BY)('by %s: totals and every group match an independent count', async (by) => {
    const stats = await computeStats(client.results.iterate({}, { pageSize: 100 }), by);
    const want = tally(oracle, by);
    expect(stats.total).toBe(2500);
    expect(stats.failed).toBe(oracle.filter((r) => !r.success).length);
    expect(stats.failed).toBeGreaterThan(500);
    expect(Object.fromEntries(stats.groups.map((g) => [g.key, [g.succeeded, g.failed]]))).toEqual(want);
    for (let i = 1; i < stats.groups.length; i++) expect(stats.groups[i - 1]!.failed).toBeGreaterThanOrEqual(stats.groups[i]!.failed);
  });

  it('over a --since window and a platform filter: only those rows count', async () => {
    const window = parseWindow({ since: '7d', now: START, zone: 'UTC' });
    const rows = selectWindow(client.results.pages({ platform: ['instagram', 'tiktok'] }), window);
    const stats = await computeStats(rows, 'code');
    const selected = oracle.filter((r) => (r.platform === 'instagram' || r.platform === 'tiktok') && Date.parse(r.created_at!) >= window.since!);
    expect(selected.length).toBeGreaterThan(50);
    expect(stats.total).toBe(selected.length);
    expect(Object.fromEntries(stats.groups.map((g) => [g.key, [g.succeeded, g.failed]]))).toEqual(tally(selected, 'code'));
  });
});
