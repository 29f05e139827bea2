// How the CLI behaves in a CI job, in-process against the sandbox over HTTP: long Retry-After
// sleeps announced, `retryAt` in JSON errors, GitHub annotations, and messages that say what
// happened to a post (created by a first attempt whose answer was lost, replayed as it is now,
// the key to re-run with after a failure).
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { advancingClock } from '../helpers/advancing-clock.js';
import { lossyProxy } from '../helpers/lossy-proxy.js';
import { cliEnv, loseNextAnswer, ROOMY_LIMITS, START, testSandbox, type TestSandbox } from '../helpers/sandbox.js';

const AT = new Date(START + 3_600_000).toISOString();

/** A port nothing listens on (connection refused). */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('rate limits in a CI log', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await testSandbox({ writeLimit: 1, readLimit: 1_000_000 });
    const first = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'one', '-q'], { env: cliEnv(sb), clock: sb.clock });
    expect(first.code, first.stderr).toBe(0);
  });
  afterAll(async () => sb?.close());

  it('beyond --max-wait: exit 5, and the JSON error carries retryAt as an ISO time', async () => {
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'two', '--json', '--max-wait', '1s'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code).toBe(5);
    const json = r.stderr.split('\n').find((l) => l.startsWith('{'));
    expect(json).toBeDefined();
    const error = (JSON.parse(json!) as { error: { retryAt?: string; exitCode: number } }).error;
    expect(error.exitCode).toBe(5);
    expect(error.retryAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Date.parse(error.retryAt!)).toBeGreaterThan(sb.clock.now());
  });

  // A 429 is the service turning the request away: nothing was made, so no "may have been created".
  it.each([
    ['create', ['posts', 'create', '--platform', 'bluesky', '--text', 'refused']],
    ['schedule', ['posts', 'schedule', '--platform', 'bluesky', '--text', 'refused', '--at', AT]],
  ])('%s refused with 429 on every try says the post was not created, and when to retry', async (_verb, argv) => {
    const before = sb.requests.length;
    const r = await runCli([...argv, '--max-wait', '1s'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code).toBe(5);
    expect(r.stderr).not.toContain('may have been created');
    expect(r.stderr).toMatch(/hint: the post was not created: the service turned the request away \(429\)/);
    expect(r.stderr).toMatch(/hint: retry after \d{4}-\d\d-\d\dT/);
    // The control: every write this run sent was answered 429, so the service made nothing.
    const writes = sb.requests.slice(before).filter((q) => q.method === 'POST');
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.map((q) => q.status)).toEqual(writes.map(() => 429));
  });

  it('a 429 after an attempt whose answer was lost settles nothing: the post may have been created', async () => {
    const fresh = await testSandbox(ROOMY_LIMITS);
    try {
      loseNextAnswer(fresh);
      fresh.failNext({ fault: 'rate-limited', method: 'POST', path: '/v1/posts' });
      const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'lost then refused', '--max-wait', '500ms'], { env: cliEnv(fresh), clock: advancingClock(fresh.clock, []) });
      expect(r.code, r.stderr).toBe(5);
      expect(fresh.requests.filter((q) => q.method === 'POST').map((q) => q.fault)).toEqual(['lost', 'rate-limited']);
      expect(r.stderr).toContain('hint: the post may have been created before the failure');
      expect(r.stderr).not.toContain('was not created');
    } finally {
      await fresh.close();
    }
  });

  it('a sleep through a long Retry-After is said once on stderr, with when it started and when it retries', async () => {
    const slept: number[] = [];
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'three', '-q', '--max-wait', '2h'], { env: cliEnv(sb), clock: advancingClock(sb.clock, slept) });
    expect(r.code, r.stderr).toBe(0);
    expect(slept.some((ms) => ms > 10_000)).toBe(true);
    const notices = r.stderr.split('\n').filter((l) => l.startsWith('waiting '));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/rate limited \(429.*since \d{4}-\d\d-\d\dT.*Z, retrying at \d{4}-\d\d-\d\dT.*Z/);
  });
});

describe('errors as GitHub annotations', () => {
  let sb: TestSandbox;
  beforeAll(async () => (sb = await testSandbox({ ...ROOMY_LIMITS, fixtures: 5 })));
  afterAll(async () => sb?.close());

  it('under GITHUB_ACTIONS=true an error is also one ::error:: line, with %, CR and LF escaped', async () => {
    const env = { ...cliEnv(sb), SOCIALPUB_API_KEY: 'sk_test_nope%', GITHUB_ACTIONS: 'true' };
    const r = await runCli(['results', 'list'], { env, clock: sb.clock });
    expect(r.code).toBe(3);
    const annotations = r.stderr.split('\n').filter((l) => l.startsWith('::error '));
    expect(annotations).toHaveLength(1);
    // A title names the program, the exit code and the error's code (the summary page shows it as the heading).
    expect(annotations[0]).toMatch(/^::error title=socialpub%3A exit 3 UNAUTHORIZED::/);
    // The hints follow on the same line, their line breaks escaped (against the local sandbox: its banner).
    expect(annotations[0]).toMatch(/%0Ahint: \S+ is a local sandbox: /);
    expect(annotations[0]).toContain('%0Arequest id: req_');
    expect(annotations[0]).not.toMatch(/\r/);
  });

  it('without GITHUB_ACTIONS: no annotation', async () => {
    const r = await runCli(['results', 'list'], { env: { ...cliEnv(sb), SOCIALPUB_API_KEY: 'sk_test_nope' }, clock: sb.clock });
    expect(r.code).toBe(3);
    expect(r.stderr).not.toContain('::error');
  });

  it('a SOCIALPUB_API_KEY that is set but empty (a secret the job cannot see) is named as such, and nothing is sent', async () => {
    const before = sb.requests.length;
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'hi'], { env: { ...cliEnv(sb), SOCIALPUB_API_KEY: '', GITHUB_ACTIONS: 'true' }, clock: sb.clock });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/hint: SOCIALPUB_API_KEY is set but empty: in CI a secret the job cannot see expands to an empty string/);
    expect(r.stderr.split('\n').find((l) => l.startsWith('::error title=socialpub%3A exit 3'))).toContain('SOCIALPUB_API_KEY is set but empty');
    // Unset, the hint would be wrong: there is nothing "empty" to look for.
    const unset = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'hi'], { env: { ...cliEnv(sb), SOCIALPUB_API_KEY: undefined }, clock: sb.clock });
    expect(unset.code).toBe(3);
    expect(unset.stderr).not.toContain('set but empty');
    expect(sb.requests.length).toBe(before);
  });

  it.each([
    ['127.0.0.1:8812', /SOCIALPUB_BASE_URL: "127\.0\.0\.1:8812" is not a URL\n {2}hint: a base URL is the service's root, for example http:\/\/127\.0\.0\.1:8812\n/],
    ['http://127.0.0.1:8812/v1', /SOCIALPUB_BASE_URL: "http:\/\/127\.0\.0\.1:8812\/v1" ends in an API path: the base URL is the service's root \(http:\/\/127\.0\.0\.1:8812\)[^\n]*\n(?! {2}hint)/],
    ['http://127.0.0.1:8812/?api_key=sk_live_leaked_0000000000', /SOCIALPUB_BASE_URL: the base URL must not carry a query or fragment\n/],
  ])('a SOCIALPUB_BASE_URL no request can go right with (%s) is exit 2 naming the variable, before anything is sent', async (url, message) => {
    const before = sb.requests.length;
    const r = await runCli(['posts', 'schedule', '--platform', 'bluesky', '--text', 'hi', '--at', AT], { env: { ...cliEnv(sb), SOCIALPUB_BASE_URL: url }, clock: sb.clock });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('sk_live_leaked');
    expect(sb.requests.length).toBe(before);
  });

  it('a usage error in JSON carries the usage code', async () => {
    const r = await runCli(['results', 'list', '--fields', 'id,nope', '--json'], { env: cliEnv(sb), clock: sb.clock });
    expect(r.code).toBe(2);
    const json = r.stderr.split('\n').find((l) => l.startsWith('{'));
    expect((JSON.parse(json!) as { error: { code: string } }).error.code).toBe('USAGE');
  });
});

describe('messages about what happened to a post', () => {
  let sb: TestSandbox;
  beforeAll(async () => (sb = await testSandbox(ROOMY_LIMITS)));
  afterAll(async () => sb?.close());

  it('a retry after a lost answer says "created", and only one post exists', async () => {
    const proxy = await lossyProxy(sb.url, (req, seen) => req.method === 'POST' && seen === 0);
    try {
      const before = sb.requests.length;
      const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', 'lost answer', '--json'], { env: { ...cliEnv(sb), SOCIALPUB_BASE_URL: proxy.url }, clock: advancingClock(sb.clock) });
      expect(r.code, r.stderr).toBe(0);
      expect(proxy.lost).toBe(1);
      expect(r.stderr).toMatch(/created: the first attempt reached the service/);
      expect(r.stderr).not.toMatch(/already created|was used before/);
      const posts = sb.requests.slice(before).filter((q) => q.method === 'POST');
      expect(posts).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it('a replay shows the post as it is now (published), not as it was when scheduled', async () => {
    const args = ['posts', 'schedule', '--platform', 'bluesky', '--text', 'replayed', '--at', new Date(sb.clock.now() + 60_000).toISOString(), '--idempotency-key', 'ci-replay-1', '--json'];
    const first = await runCli(args, { env: cliEnv(sb), clock: sb.clock });
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as { status: string }).status).toBe('scheduled');
    await sb.clock.advance(120_000);
    await sb.settle();
    const again = await runCli(args, { env: cliEnv(sb), clock: sb.clock });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already created/);
    expect((JSON.parse(again.stdout) as { status: string }).status).toBe('published');
  });

  it('a reused key with an absolute --at: no hint about relative times; with a relative one: the hint', async () => {
    const absolute = (text: string) => ['posts', 'schedule', '--platform', 'bluesky', '--text', text, '--at', AT, '--idempotency-key', 'ci-abs'];
    expect((await runCli(absolute('first'), { env: cliEnv(sb), clock: sb.clock })).code).toBe(0);
    const reused = await runCli(absolute('second'), { env: cliEnv(sb), clock: sb.clock });
    expect(reused.code).toBe(2);
    expect(reused.stderr).toMatch(/idempotency/i);
    expect(reused.stderr).not.toMatch(/relative --at/);

    const relative = ['posts', 'schedule', '--platform', 'bluesky', '--text', 'rel', '--at', '+2h', '--idempotency-key', 'ci-rel'];
    expect((await runCli(relative, { env: cliEnv(sb), clock: sb.clock })).code).toBe(0);
    await sb.clock.advance(60_000);
    const again = await runCli(relative, { env: cliEnv(sb), clock: sb.clock });
    expect(again.code).toBe(2);
    // The --at as given, not a stock example.
    expect(again.stderr).toMatch(/hint: a relative --at \(\+2h\) computes a new time on every run/);
  });

  it('a failed schedule without --idempotency-key prints the key (and the absolute time) to re-run with', async () => {
    const env = { ...cliEnv(sb), SOCIALPUB_BASE_URL: `http://127.0.0.1:${await deadPort()}` };
    const r = await runCli(['posts', 'schedule', '--platform', 'bluesky', '--text', 'x', '--at', '+1h', '--max-retries', '0'], { env, clock: sb.clock });
    expect(r.code).toBe(6);
    const hint = /re-run with --idempotency-key ([0-9a-f-]{36}) --at (\S+)/.exec(r.stderr);
    expect(hint, r.stderr).not.toBeNull();
    expect(hint![2]).toBe(new Date(sb.clock.now() + 3_600_000).toISOString());
  });

  it("a failure after the request went out names the job's own key too: the answer that never came may have been a 201", async () => {
    const proxy = await lossyProxy(sb.url, (req) => req.method === 'POST');
    try {
      const args = ['posts', 'schedule', '--platform', 'bluesky', '--text', 'lost', '--at', AT, '--idempotency-key', 'release-v1.2.3', '--max-retries', '0'];
      const r = await runCli(args, { env: { ...cliEnv(sb), SOCIALPUB_BASE_URL: proxy.url }, clock: sb.clock });
      expect(r.code).toBe(6);
      expect(proxy.lost).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`hint: the post may have been created before the failure: re-run with --idempotency-key release-v1.2.3 --at ${AT}`);
    } finally {
      await proxy.close();
    }
  });

  it('a write interrupted while its request is out (a cancelled CI job) says interrupted, and the key that settles it', async () => {
    const controller = new AbortController();
    // A service that takes the request and never answers: the signal arrives while it is out.
    const silent = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => controller.abort());
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const { port } = silent.address() as { port: number };
      const args = ['posts', 'schedule', '--platform', 'bluesky', '--text', 'cut', '--at', AT, '--idempotency-key', 'release-v1.2.4'];
      const r = await runCli(args, { env: { ...cliEnv(sb), SOCIALPUB_BASE_URL: `http://127.0.0.1:${port}` }, clock: sb.clock, signal: controller.signal });
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe('interrupted');
      expect(r.stderr).toContain(`hint: the post may have been created before the failure: re-run with --idempotency-key release-v1.2.4 --at ${AT}`);
    } finally {
      silent.close();
    }
  });
});

describe('help and mistyped commands', () => {
  it('`posts bulk` points at `posts schedule --from-file`, exit 2', async () => {
    const r = await runCli(['posts', 'bulk', 'file.csv'], { env: { SOCIALPUB_API_KEY: 'sk_test_x', SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('posts schedule --from-file');
  });

  it('`help exit-codes` lists a `results wait` that gave up under 8 (not 1, a crash), and 143 for SIGTERM', async () => {
    const r = await runCli(['help', 'exit-codes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n\s*8\s+gave up waiting: `results wait --timeout` passed/);
    expect(r.stdout).not.toMatch(/\n\s*1\s+[^\n]*results wait/);
    expect(r.stdout).toMatch(/\n\s*143\s+terminated \(SIGTERM/);
  });
});
