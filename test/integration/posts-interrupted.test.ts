// Ctrl-C while a post is being created: the request may have reached the service, so the run
// says "interrupted" and how to find out without posting twice (the key to re-run with).
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server.js';

let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('interrupted while creating a post', () => {
  it('exits 130 and names the idempotency key a re-run must use', async () => {
    const stop = new AbortController();
    // The service has the request, and the user presses Ctrl-C before the answer.
    server = await startMisbehavingServer((req) => {
      if (req.method === 'POST') stop.abort();
    });
    const env = { SOCIALPUB_BASE_URL: server.url, SOCIALPUB_API_KEY: 'sk_test_interrupted_000000000000' };
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'Autumn drop'], { env, signal: stop.signal });
    expect(r.code).toBe(130);
    expect(server.requests.map((q) => q.method)).toEqual(['POST']);
    const key = /re-run with --idempotency-key (\S+)/.exec(r.stderr)?.[1];
    expect(r.stderr.startsWith('interrupted\n')).toBe(true);
    expect(key).toBe(server.requests[0]!.headers['idempotency-key']);
    expect(r.stdout).toBe('');
  });
});
