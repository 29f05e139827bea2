// posts queue keeps the window's earliest 2,000 posts: when it leaves some out, every format says
// so on stderr (a TSV or JSON file must not pass for the whole window), a table once, in its
// footer. Over real HTTP to a service on 127.0.0.1 that lists 2,001 scheduled posts.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { answer, misbehavingPerTest } from '../helpers/misbehaving-server.js';
import { QUEUE_CAP } from '../../src/posts/queue.js';

const TOTAL = QUEUE_CAP + 1;
const posts = Array.from({ length: TOTAL }, (_, i) => {
  const at = new Date(Date.UTC(2030, 0, 2) + i * 60_000).toISOString();
  return { id: `post_q${String(i).padStart(5, '0')}`, status: 'scheduled', payloads: { bluesky: { text: `queued ${i}` } }, scheduledAt: at, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
});
const service = misbehavingPerTest({ SOCIALPUB_API_KEY: 'sk_test_queue_cap_000000000', NO_COLOR: '1' });

async function serveQueue(): Promise<Record<string, string>> {
  return service.serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/v1/posts') return answer(res, 404, { error: { code: 'NOT_FOUND', message: 'no such route' } });
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 10);
    answer(res, 200, { data: posts.slice(offset, offset + limit), meta: { offset, limit, total: TOTAL } });
  });
}

const argv = ['posts', 'queue', '--from', '2030-01-01', '--to', '2030-01-31', '--tz', 'UTC'];
const said = `showing the first 2,000 of ${TOTAL.toLocaleString('en-US')} scheduled posts in the window (at most 2,000); narrow it with --to`;

describe('posts queue past its cap', () => {
  it('piped (TSV), JSON and CSV print the first 2,000 and say on stderr that more were left out', async () => {
    const env = await serveQueue();
    for (const format of ['tsv', 'json', 'csv']) {
      const r = await runCli([...argv, '-o', format], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr, format).toContain(said);
      if (format === 'tsv') expect(r.stdout.trimEnd().split('\n')).toHaveLength(QUEUE_CAP);
    }
  });

  it('a table says it once, in its footer', async () => {
    const env = await serveQueue();
    const r = await runCli([...argv, '--no-pager'], { env, tty: true, columns: 120 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split(said)).toHaveLength(2);
  });
});
