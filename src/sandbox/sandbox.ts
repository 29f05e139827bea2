// startSandbox(): opens the database (`--data FILE`, or one in memory), sets up or reads back
// the workspaces and settings, starts the HTTP server and returns the handle tests and the
// `socialpub sandbox` command use.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateWebhookSecret, SECRET_PREFIX } from '../wire/webhook-signing.js';
import { systemClock, type SandboxClock } from './clock.js';
import { SandboxCore, type SandboxConfig } from './core.js';
import { IdCodec } from './ids.js';
import { makeApiKey } from './keys.js';
import { openStore } from './db/open.js';
import { readSettings, readWorkspaces, writeSettings, writeWorkspace } from './db/records.js';
import { hasAccounts, seedAccounts } from './accounts.js';
import type { Store } from './db/store.js';
import { entropyFromSeed, hash, randomEntropy, STREAM, type Entropy } from './random.js';
import { createRequestHandler } from './server.js';
import { guardServer } from './http/connection-guard.js';
import type { Sandbox, SandboxOptions } from './types.js';
import { DEFAULT_RETRY_DELAYS_MS, DEFAULT_WEBHOOK_TIMEOUT_MS } from './webhooks.js';
import { Workspace, type WorkspaceInit } from './workspace.js';
import { isWebhookSecret } from '../wire/webhook-signing.js';
import { isLoopbackHost } from '../wire/protocol.js';
import { configureDashboard } from './dashboard/access.js';

export const SANDBOX_DEFAULTS = {
  host: '127.0.0.1',
  failureRate: 0.2,
  writeLimit: 100,
  readLimit: 10_000,
  chaosSlowMs: 35_000,
  // Uploads stream through (only the first bytes of a large file are kept): the platforms' own
  // limits, checked on POST /v1/media, are the real ceiling.
  maxUploadBytes: 256 * 1024 ** 3,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  // With Node's check every second on top, a trickled request is answered within 30 s.
  requestTimeoutMs: 28_000,
  maxConnections: 512,
} as const;

/** The built-in workspaces: two with the API add-on (to try isolation), one without. */
export const BUILT_IN_WORKSPACES = [
  { name: 'demo', tag: 1, addon: true },
  { name: 'other', tag: 2, addon: true },
  { name: 'lapsed', tag: 3, addon: false },
] as const;

export class SandboxOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxOptionError';
  }
}

function check(options: SandboxOptions): void {
  const rate = (name: string, v: number | undefined) => {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= 1)) throw new SandboxOptionError(`${name} must be a number from 0 to 1, not ${v}`);
  };
  const count = (name: string, v: number | undefined, min: number) => {
    if (v !== undefined && !(Number.isInteger(v) && v >= min)) throw new SandboxOptionError(`${name} must be a whole number ≥ ${min}, not ${v}`);
  };
  rate('failureRate', options.failureRate);
  rate('chaos', options.chaos);
  count('writeLimit', options.writeLimit, 1);
  count('readLimit', options.readLimit, 1);
  count('fixtures', options.fixtures, 0);
  count('accounts', options.accounts, 0);
  count('latencyMs', options.latencyMs, 0);
  count('chaosSlowMs', options.chaosSlowMs, 0);
  count('webhookTimeoutMs', options.webhookTimeoutMs, 1);
  count('headersTimeoutMs', options.headersTimeoutMs, 1);
  count('bodyTimeoutMs', options.bodyTimeoutMs, 1);
  count('requestTimeoutMs', options.requestTimeoutMs, 1);
  count('maxConnections', options.maxConnections, 1);
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port >= 0 && options.port <= 65535)) {
    throw new SandboxOptionError(`port must be a whole number from 0 to 65535, not ${options.port}`);
  }
  if (options.fixtures !== undefined && options.fixtures > 20_000_000) throw new SandboxOptionError('fixtures: at most 20,000,000');
  if (options.webhookSecret !== undefined && !isWebhookSecret(options.webhookSecret, { minBytes: 12 })) {
    throw new SandboxOptionError(`webhookSecret must look like ${SECRET_PREFIX}<base64>, at least 12 bytes`);
  }
  if (options.webhookUrl !== undefined) checkUrl(options.webhookUrl);
  if (options.dashboardToken !== undefined && !/^[\w.~-]{16,200}$/.test(options.dashboardToken)) throw new SandboxOptionError('dashboardToken must be 16 to 200 URL-safe characters');
  for (const d of options.webhookRetryDelaysMs ?? []) {
    if (!(Number.isFinite(d) && d >= 0)) throw new SandboxOptionError(`webhookRetryDelaysMs: ${d} is not a delay`);
  }
}

function checkUrl(url: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SandboxOptionError(`webhookUrl: "${url}" is not a URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new SandboxOptionError(`webhookUrl: "${url}" must be http or https`);
}

function seededSecret(e: Entropy): string {
  const bytes = Buffer.alloc(24);
  for (let i = 0; i < 6; i++) bytes.writeUInt32LE(hash(e, STREAM.webhookSecret, i), i * 4);
  return generateWebhookSecret(bytes);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  check(options);
  const clock = options.clock ?? systemClock;
  const store = openStore(options.dataFile);
  try {
    return await serve(options, clock, store);
  } catch (err) {
    // A sandbox that did not start holds nothing: the next one may start on this file.
    store.close();
    throw err;
  }
}

async function serve(options: SandboxOptions, clock: SandboxClock, store: Store): Promise<Sandbox> {
  const saved = store.restored ? readSettings(store) : undefined;
  const seeded = options.seed !== undefined;
  const entropy = saved?.entropy ?? (seeded ? entropyFromSeed(options.seed!) : randomEntropy());
  const ids = new IdCodec(entropy);
  const config: SandboxConfig = {
    failureRate: options.failureRate ?? SANDBOX_DEFAULTS.failureRate,
    writeLimit: options.writeLimit ?? SANDBOX_DEFAULTS.writeLimit,
    readLimit: options.readLimit ?? SANDBOX_DEFAULTS.readLimit,
    latencyMs: options.latencyMs ?? 0,
    chaos: options.chaos ?? 0,
    chaosSlowMs: options.chaosSlowMs ?? SANDBOX_DEFAULTS.chaosSlowMs,
    maxUploadBytes: SANDBOX_DEFAULTS.maxUploadBytes,
    bodyIdleMs: options.bodyTimeoutMs ?? SANDBOX_DEFAULTS.bodyTimeoutMs,
  };
  const limits = { write: config.writeLimit, read: config.readLimit };

  const inits: WorkspaceInit[] = saved
    ? readWorkspaces(store)
    : BUILT_IN_WORKSPACES.map((w) => ({
        ...w,
        apiKey: makeApiKey(seeded ? entropy : undefined, w.tag),
        fixtures: w.name === 'demo' && options.fixtures ? { count: options.fixtures, anchorMs: clock.now(), failureRate: config.failureRate } : undefined,
      }));
  const webhookSecret = options.webhookSecret ?? saved?.webhookSecret ?? (seeded ? seededSecret(entropy) : generateWebhookSecret());
  const boot = (saved?.boot ?? 0) + 1;
  // The keys, the entropy, the seeded accounts and this start's number (the request-id counter) are committed
  // before any id is handed out.
  store.transaction(() => {
    writeSettings(store, { entropy, webhookSecret, boot });
    if (!saved) for (const init of inits) writeWorkspace(store, init);
    // Each workspace's accounts, at its first start (or the first since accounts were stored).
    for (const init of inits) if (!hasAccounts(store, init.tag)) seedAccounts(store, init.tag, init.name, { anchorMs: clock.now(), count: init.name === 'demo' ? options.accounts : undefined });
  });
  await store.committed();
  const workspaces = inits.map((init) => new Workspace(entropy, ids, store, init, limits));

  const core = new SandboxCore(
    store,
    clock,
    entropy,
    ids,
    workspaces,
    config,
    {
      url: options.webhookUrl,
      secret: webhookSecret,
      retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
      userAgent: 'socialpub-sandbox',
    },
    boot,
  );
  core.resume();

  const headersTimeoutMs = options.headersTimeoutMs ?? SANDBOX_DEFAULTS.headersTimeoutMs;
  // Node wants the headers' deadline inside the request's.
  const requestTimeoutMs = Math.max(headersTimeoutMs, options.requestTimeoutMs ?? SANDBOX_DEFAULTS.requestTimeoutMs);
  const checkIntervalMs = Math.max(5, Math.min(1_000, Math.floor(headersTimeoutMs / 4)));
  const server = createServer({ keepAliveTimeout: 5_000, connectionsCheckingInterval: checkIntervalMs }, createRequestHandler(core));
  guardServer(server, core, { headersTimeoutMs, requestTimeoutMs, maxConnections: options.maxConnections ?? SANDBOX_DEFAULTS.maxConnections });
  await listen(server, options.port ?? 0, options.host ?? SANDBOX_DEFAULTS.host);
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  core.baseUrl = url;
  // The dashboard shows every workspace: off loopback it asks for a token printed at start.
  const loopback = isLoopbackHost(address.address);
  const dashboardToken = options.dashboardToken ?? (loopback ? undefined : randomBytes(24).toString('base64url'));
  configureDashboard(core, { token: dashboardToken, loopback });

  let closed: Promise<void> | undefined;
  const sandbox: Sandbox = {
    url,
    dashboardUrl: dashboardToken ? `${url}/?token=${encodeURIComponent(dashboardToken)}` : `${url}/`,
    workspaces: workspaces.map((w) => ({ name: w.name, apiKey: w.apiKey, addon: w.addon })),
    webhookSecret,
    clock,
    requests: core.requests,
    deliveries: core.webhooks.log,
    restored: saved !== undefined,
    notices: [],
    fixtures: workspaces.find((w) => w.name === 'demo')?.fixtures?.spec.count ?? 0,
    key(name) {
      const ws = workspaces.find((w) => w.name === name);
      if (!ws) throw new Error(`no sandbox workspace "${name}"; there are ${workspaces.map((w) => w.name).join(', ')}`);
      return ws.apiKey;
    },
    async settle() {
      for (;;) {
        if (core.publisher.hasDue()) await core.publisher.runDue();
        if (!core.webhooks.busy) return;
        await core.webhooks.settle();
      }
    },
    failNext(plan) {
      return core.chaos.plan(plan);
    },
    setWebhookUrl(next) {
      if (next !== undefined) checkUrl(next);
      core.webhooks.url = next;
    },
    close() {
      closed ??= (async () => {
        core.closing = true;
        core.publisher.close();
        core.cancelDelays();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await core.webhooks.close();
        await stopped;
        store.close();
      })();
      return closed;
    },
  };
  return sandbox;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') reject(new SandboxOptionError(`${host}:${port} is already in use; pick another --port (0 = any free port)`));
      else if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') reject(new SandboxOptionError(`cannot listen on ${host}: not an address of this machine`));
      else if (err.code === 'EACCES') reject(new SandboxOptionError(`no permission to listen on ${host}:${port}; ports below 1024 need privileges`));
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}
