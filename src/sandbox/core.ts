// Everything the HTTP layer and the handlers share: configuration, clock, the database,
// workspaces, the publisher and webhook dispatcher, chaos, the request log.
import type { SandboxClock } from './clock.js';
import { Chaos } from './chaos.js';
import type { IdCodec } from './ids.js';
import { KeyRing } from './keys.js';
import { pendingDeliveries, queueDelivery, removeDelivery } from './db/records.js';
import type { Store } from './db/store.js';
import { Publisher, type PublisherHost } from './publisher.js';
import { RollingWindow } from './rate-limit.js';
import type { Entropy } from './random.js';
import type { RequestLogEntry } from './types.js';
import { WebhookDispatcher, type WebhookOptions } from './webhooks.js';
import type { Workspace } from './workspace.js';

export interface SandboxConfig {
  failureRate: number;
  writeLimit: number;
  readLimit: number;
  latencyMs: number;
  chaos: number;
  chaosSlowMs: number;
  /** Largest media upload the sandbox takes (the bytes stream through). */
  maxUploadBytes: number;
  /** A request body with no byte for this long is answered 408 (real time: it guards real sockets). */
  bodyIdleMs: number;
}

const REQUEST_LOG_MAX = 10_000;

export class SandboxCore implements PublisherHost {
  baseUrl = '';
  readonly requests: RequestLogEntry[] = [];
  readonly publisher: Publisher;
  readonly webhooks: WebhookDispatcher;
  readonly chaos: Chaos;
  readonly keyring: KeyRing<Workspace>;
  closing = false;
  /** Publishes that could not be committed, for whoever looks (tests, the library's user). */
  readonly publishFailures: string[] = [];
  private readonly anonymous = new Map<string, RollingWindow>();
  private requestCount = 0;
  private readonly delays = new Set<{ cancel: () => void; resolve: () => void }>();

  constructor(
    readonly store: Store,
    readonly clock: SandboxClock,
    readonly entropy: Entropy,
    readonly ids: IdCodec,
    readonly workspaces: Workspace[],
    readonly config: SandboxConfig,
    webhook: WebhookOptions,
    readonly boot: number,
  ) {
    this.publisher = new Publisher(this);
    this.webhooks = new WebhookDispatcher(clock, webhook);
    this.chaos = new Chaos(config.chaos, entropy);
    this.keyring = new KeyRing(workspaces.map((ws) => ({ key: ws.apiKey, owner: ws })));
    // Every delivery not yet answered is in the database (committed with the result it
    // announces, when the publisher makes it), so its retries carry over a crash or a restart.
    this.webhooks.recorder = {
      pending: (d) => quietly(() => queueDelivery(store, d)),
      done: (id) => quietly(() => removeDelivery(store, id)),
      // Failures are told to the requests that wait for the same commit; a delivery goes on.
      durable: () => store.committed()?.catch(() => undefined),
    };
  }

  /** After start: scheduled posts back in the publisher's queue, pending webhook retries set going. */
  resume(): void {
    for (const ws of this.workspaces) for (const post of ws.scheduledPosts()) this.publisher.track(ws, post);
    this.webhooks.resume(pendingDeliveries(this.store));
  }

  commit<T>(fn: () => T): T {
    return this.store.transaction(fn);
  }

  committed(): Promise<void> | undefined {
    return this.store.committed();
  }

  /** A publish not committed (a full disk): the post stays scheduled, and is published at the next start. */
  onFailure(err: Error): void {
    this.publishFailures.push(err.message);
  }

  get failureRate(): number {
    return this.config.failureRate;
  }

  /** The webhook announcing a result row. */
  private resultEvent(ws: Workspace, row: number): object {
    const r = ws.resultJson(row);
    return {
      type: 'post.result',
      postId: r.post_id,
      platform: r.platform,
      status: r.success ? 'published' : 'failed',
      resultId: r.id,
      ...(r.error ? { error: r.error } : {}),
    };
  }

  /** Inside the publisher's transaction: the first delivery of each new row, queued with the rows themselves. */
  queueResults(ws: Workspace, rows: readonly number[]): void {
    if (!this.webhooks.url || this.closing) return;
    const now = this.clock.now();
    for (const row of rows) queueDelivery(this.store, { id: ws.messageId(row), body: JSON.stringify(this.resultEvent(ws, row)), attempt: 1, dueAt: now });
  }

  /** After the commit: the delivery's first attempt. */
  onResult(ws: Workspace, row: number): Promise<void> {
    return this.webhooks.deliver(ws.messageId(row), this.resultEvent(ws, row));
  }

  nextRequestId(): string {
    return this.ids.encode('request', this.boot & 0xffff, this.requestCount++);
  }

  /** Unauthenticated requests are limited per client address, at the read limit. */
  anonymousWindow(address: string): RollingWindow {
    let w = this.anonymous.get(address);
    if (!w) {
      if (this.anonymous.size > 10_000) this.anonymous.clear();
      w = new RollingWindow(this.config.readLimit);
      this.anonymous.set(address, w);
    }
    return w;
  }

  /** A real-time wait (the "slow" chaos fault, which must outlast a real client's timeout) that close() cuts short. */
  realDelay(ms: number): Promise<void> {
    return this.wait(ms, (done) => {
      const timer = setTimeout(done, ms);
      return () => clearTimeout(timer);
    });
  }

  /** A wait on the sandbox clock (--latency), so tests move it with the clock instead of sleeping; close() cuts it short. */
  clockDelay(ms: number): Promise<void> {
    return this.wait(ms, (done) => this.clock.setTimer(this.clock.now() + ms, done));
  }

  private wait(ms: number, arm: (done: () => void) => () => void): Promise<void> {
    if (ms <= 0 || this.closing) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = { cancel: () => undefined as void, resolve };
      entry.cancel = arm(() => {
        this.delays.delete(entry);
        resolve();
      });
      this.delays.add(entry);
    });
  }

  cancelDelays(): void {
    for (const d of this.delays) {
      d.cancel();
      d.resolve();
    }
    this.delays.clear();
  }

  log(entry: RequestLogEntry): void {
    this.requests.push(entry);
    if (this.requests.length > REQUEST_LOG_MAX * 2) this.requests.splice(0, this.requests.length - REQUEST_LOG_MAX);
  }
}

/** A queue change that could not be saved: the delivery goes on from memory (it is only lost by a crash). */
function quietly(write: () => void): void {
  try {
    write();
  } catch {
    // Logged nowhere on purpose: the next commit tells the full disk to the request that meets it.
  }
}
