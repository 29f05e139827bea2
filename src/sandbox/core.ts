// Everything the HTTP layer and the handlers share: configuration, clock, workspaces, the
// publisher and webhook dispatcher, chaos, the request log, and what `--data` must record.
import type { SandboxClock } from './clock.js';
import { Chaos } from './chaos.js';
import type { IdCodec } from './ids.js';
import { KeyRing } from './keys.js';
import type { Change } from './durable/replay.js';
import type { Journal } from './durable/journal.js';
import { STATE_FORMAT, STATE_VERSION, type SavedMedia, type SavedState } from './persistence.js';
import { Publisher, type PublisherHost } from './publisher.js';
import { RollingWindow } from './rate-limit.js';
import type { Entropy } from './random.js';
import type { RequestLogEntry } from './types.js';
import { WebhookDispatcher, type WebhookOptions } from './webhooks.js';
import type { MediaRecord, Workspace } from './workspace.js';
import type { LivePost } from './store/post-store.js';

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
  /** The write-ahead log, with `--data`. */
  private journal: Journal | undefined;
  closing = false;
  private readonly anonymous = new Map<string, RollingWindow>();
  private requestCount = 0;
  private readonly delays = new Set<{ cancel: () => void; resolve: () => void }>();

  constructor(
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
  }

  get failureRate(): number {
    return this.config.failureRate;
  }

  onResult(ws: Workspace, row: number): Promise<void> {
    const r = ws.resultJson(row);
    return this.webhooks.deliver(ws.messageId(row), {
      type: 'post.result',
      postId: r.post_id,
      platform: r.platform,
      status: r.success ? 'published' : 'failed',
      resultId: r.id,
      ...(r.error ? { error: r.error } : {}),
    });
  }

  /** From now on every change goes to this log; responses wait for `durable()`. */
  attachJournal(journal: Journal): void {
    const first = this.journal === undefined;
    this.journal = journal;
    if (!first) return;
    for (const ws of this.workspaces) {
      ws.writes.onTake = (at) => this.record({ t: 'hit', w: ws.tag, k: 'write', at });
      // Reads are not worth an fsync each: their counts ride with the next write (or within a second).
      ws.reads.onTake = (at) => this.record({ t: 'hit', w: ws.tag, k: 'read', at }, true);
    }
    this.webhooks.recorder = {
      pending: (d) => this.record({ t: 'webhook', d }),
      done: (id) => this.record({ t: 'delivered', id }),
      durable: () => this.durable(),
    };
  }

  private record(change: Change, lazy = false): void {
    this.journal?.append(change, lazy);
  }

  /** Resolves when every change made so far is on disk (undefined when nothing is waiting). */
  durable(): Promise<void> | undefined {
    return this.journal?.durable();
  }

  savePost(ws: Workspace, post: LivePost): void {
    this.record({ t: 'post', w: ws.tag, post });
  }

  saveMedia(ws: Workspace, m: MediaRecord): void {
    this.record({ t: 'media', w: ws.tag, media: savedMedia(m) });
  }

  saveIdempotency(ws: Workspace, key: string): void {
    const record = ws.idempotency.saved(key);
    if (record) this.record({ t: 'idem', w: ws.tag, record });
  }

  published(ws: Workspace, post: LivePost, fromRow: number): void {
    if (!this.journal) return;
    this.record({ t: 'rows', w: ws.tag, from: fromRow, rows: ws.liveRows(fromRow) });
    this.savePost(ws, post);
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

  snapshot(generation: number): SavedState {
    const now = this.clock.now();
    return {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      savedAt: new Date(now).toISOString(),
      entropy: this.entropy,
      boot: this.boot,
      journal: generation,
      webhookSecret: this.webhooks.secret,
      webhooks: [...this.webhooks.pending.values()],
      workspaces: this.workspaces.map((ws) => ({
        name: ws.name,
        tag: ws.tag,
        apiKey: ws.apiKey,
        addon: ws.addon,
        ...(ws.fixtures ? { fixtures: ws.fixtures } : {}),
        posts: [...ws.posts.livePosts()],
        rows: ws.liveRows(),
        media: ws.media.map(savedMedia),
        idempotency: ws.idempotency.snapshot(),
        windows: { read: ws.reads.snapshot(now), write: ws.writes.snapshot(now) },
      })),
    };
  }
}

function savedMedia(m: MediaRecord): SavedMedia {
  return {
    index: m.index,
    name: m.name,
    mimeType: m.mimeType,
    sizeBytes: m.sizeBytes,
    createdAt: m.createdAt,
    ...(m.bytes ? { bytes: m.bytes.toString('base64') } : {}),
  };
}
