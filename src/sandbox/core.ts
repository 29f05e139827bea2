// Everything the HTTP layer and the handlers share: configuration, clock, workspaces, the
// publisher and webhook dispatcher, chaos, the request log and the state writer.
import type { SandboxClock } from './clock.js';
import { Chaos } from './chaos.js';
import { IdCodec } from './ids.js';
import { KeyRing } from './keys.js';
import { STATE_FORMAT, STATE_VERSION, type SavedState, type StateWriter } from './persistence.js';
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
  /** Largest media upload the sandbox keeps (in memory). */
  maxUploadBytes: number;
}

const REQUEST_LOG_MAX = 10_000;

export class SandboxCore implements PublisherHost {
  baseUrl = '';
  readonly requests: RequestLogEntry[] = [];
  readonly publisher: Publisher;
  readonly webhooks: WebhookDispatcher;
  readonly chaos: Chaos;
  readonly keyring: KeyRing<Workspace>;
  writer: StateWriter | undefined;
  closing = false;
  private readonly anonymous = new Map<string, RollingWindow>();
  private requestCount = 0;
  private readonly delays = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();

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

  changed(): void {
    this.writer?.schedule();
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

  /** A real-time wait (latency, slow responses) that close() cuts short. */
  realDelay(ms: number): Promise<void> {
    if (ms <= 0 || this.closing) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.delays.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.delays.add(entry);
    });
  }

  cancelDelays(): void {
    for (const d of this.delays) {
      clearTimeout(d.timer);
      d.resolve();
    }
    this.delays.clear();
  }

  log(entry: RequestLogEntry): void {
    this.requests.push(entry);
    if (this.requests.length > REQUEST_LOG_MAX * 2) this.requests.splice(0, this.requests.length - REQUEST_LOG_MAX);
  }

  snapshot(): SavedState {
    return {
      format: STATE_FORMAT,
      version: STATE_VERSION,
      savedAt: new Date(this.clock.now()).toISOString(),
      entropy: this.entropy,
      boot: this.boot,
      webhookSecret: this.webhooks.secret,
      workspaces: this.workspaces.map((ws) => ({
        name: ws.name,
        tag: ws.tag,
        apiKey: ws.apiKey,
        addon: ws.addon,
        ...(ws.fixtures ? { fixtures: ws.fixtures } : {}),
        posts: [...ws.posts.livePosts()],
        rows: ws.liveRows(),
        media: ws.media.map((m) => ({
          index: m.index,
          name: m.name,
          mimeType: m.mimeType,
          sizeBytes: m.sizeBytes,
          createdAt: m.createdAt,
          ...(m.bytes ? { bytes: m.bytes.toString('base64') } : {}),
        })),
        idempotency: ws.idempotency.snapshot(),
      })),
    };
  }
}
