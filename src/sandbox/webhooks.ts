// Webhook deliveries: one POST per result, signed per Standard Webhooks (src/wire), retried on
// a non-2xx answer, a connection error or a timeout, after each delay of the backoff schedule
// on the sandbox clock, always with the same webhook-id. Nothing here blocks the API. With
// `--data`, a delivery not yet answered is recorded (and the first attempt waits until the
// result it announces is on disk), so its retries carry over a crash or a restart.
import { HEADER } from '../wire/protocol.js';
import { sign } from '../wire/webhook-signing.js';
import type { SandboxClock } from './clock.js';

/** Roughly exponential, as the common webhook services do: 5 s, 30 s, 2 min, 10 min, 1 h, 4 h. */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000, 14_400_000];
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** The most of a receiver's reply that is read; the status alone decides the outcome. */
export const REPLY_READ_BYTES = 4 * 1024;

export interface DeliveryLogEntry {
  webhookId: string;
  attempt: number;
  url: string;
  /** HTTP status of the receiver's answer; 0 when there was none. */
  status: number;
  error?: string;
  at: number;
  /** Whether another attempt is scheduled after this one. */
  willRetry: boolean;
  /** Real time the attempt took, in ms. */
  durationMs?: number;
  /** When the next attempt is due (sandbox clock), with willRetry. */
  nextAt?: number;
  /** A one-off attempt asked for by hand (the dashboard's resend). */
  resent?: true;
}

/** A delivery still to be attempted: its number and when (sandbox clock). */
export interface PendingDelivery {
  id: string;
  body: string;
  attempt: number;
  dueAt: number;
}

type Delivery = PendingDelivery & { resent?: true };

/** Bodies of this many recent deliveries are kept, so that one can be sent again by hand. */
const KEPT_BODIES = 10_000;

/** Where pending deliveries are recorded: the database's webhook_queue (core.ts), so with `--data` they outlive the process. */
export interface DeliveryRecorder {
  pending(d: PendingDelivery): void;
  done(id: string): void;
  /** Resolves when what a delivery announces is committed (with `--data`: on disk). */
  durable(): Promise<void> | undefined;
}

export interface WebhookOptions {
  url: string | undefined;
  secret: string;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  userAgent: string;
}

export class WebhookDispatcher {
  url: string | undefined;
  readonly log: DeliveryLogEntry[] = [];
  private readonly inflight = new Set<Promise<void>>();
  private readonly timers = new Set<() => void>();
  private readonly stop = new AbortController();
  /** Deliveries waiting for an attempt or in one, by webhook-id. */
  readonly pending = new Map<string, PendingDelivery>();
  recorder: DeliveryRecorder | undefined;
  /** Recent delivery bodies by webhook-id (oldest first), for a resend. */
  private readonly bodies = new Map<string, string>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly options: WebhookOptions,
  ) {
    this.url = options.url;
  }

  get secret(): string {
    return this.options.secret;
  }

  /** Starts delivering `payload`; the returned promise settles after the first attempt. */
  deliver(webhookId: string, payload: object): Promise<void> {
    if (!this.url || this.stop.signal.aborted) return Promise.resolve();
    const d: Delivery = { id: webhookId, body: JSON.stringify(payload), attempt: 1, dueAt: this.clock.now() };
    this.track(d);
    return this.attempt(d);
  }

  /** Deliveries saved by a previous run: each is attempted when due (at once when overdue). */
  resume(deliveries: readonly PendingDelivery[]): void {
    for (const d of deliveries) {
      this.pending.set(d.id, d);
      this.later(d);
    }
  }

  /** What a recent delivery announced, when its body is still kept. */
  payloadOf(webhookId: string): Record<string, string> | undefined {
    const body = this.bodies.get(webhookId) ?? this.pending.get(webhookId)?.body;
    return body === undefined ? undefined : (JSON.parse(body) as Record<string, string>);
  }

  /** One more attempt of a recent delivery, numbered after its last, never retried; false when its body is gone. */
  resend(webhookId: string): boolean {
    const body = this.bodies.get(webhookId) ?? this.pending.get(webhookId)?.body;
    if (body === undefined || !this.url || this.stop.signal.aborted) return false;
    let last = 0;
    for (const e of this.log) if (e.webhookId === webhookId) last = Math.max(last, e.attempt);
    void this.attempt({ id: webhookId, body, attempt: last + 1, dueAt: this.clock.now(), resent: true });
    return true;
  }

  private keep(d: Delivery): void {
    this.bodies.delete(d.id);
    this.bodies.set(d.id, d.body);
    if (this.bodies.size > KEPT_BODIES) this.bodies.delete(this.bodies.keys().next().value!);
  }

  private track(d: Delivery): void {
    this.pending.set(d.id, d);
    this.recorder?.pending(d);
  }

  private later(d: Delivery): void {
    const cancel = this.clock.setTimer(d.dueAt, () => {
      this.timers.delete(cancel);
      return this.attempt(d);
    });
    this.timers.add(cancel);
  }

  private attempt(d: Delivery): Promise<void> {
    const p: Promise<void> = this.send(d).finally(() => this.inflight.delete(p));
    this.inflight.add(p);
    return p;
  }

  private async send(d: Delivery): Promise<void> {
    // The receiver must never hear of a result that a crash could still take back.
    await this.recorder?.durable();
    const url = this.url;
    // Without a URL (a restart without --webhook-url) the delivery stays pending, and saved.
    if (!url || this.stop.signal.aborted) return;
    const timestamp = Math.floor(this.clock.now() / 1000);
    this.keep(d);
    const started = performance.now();
    let status = 0;
    let error: string | undefined;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': this.options.userAgent,
          [HEADER.webhookId]: d.id,
          [HEADER.webhookTimestamp]: String(timestamp),
          [HEADER.webhookSignature]: sign(this.options.secret, d.id, timestamp, d.body),
        },
        body: d.body,
        redirect: 'manual',
        signal: AbortSignal.any([this.stop.signal, AbortSignal.timeout(this.options.timeoutMs)]),
      });
      status = res.status;
      // Read (a short reply lets the connection be reused), but never more than a few KB.
      await readAtMost(res, REPLY_READ_BYTES).catch(() => undefined);
    } catch (err) {
      const e = err as Error;
      error = e.name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : (e.cause as Error | undefined)?.message ?? e.message;
    }
    // Stopping cut this attempt short: it stays pending for the next start.
    if (this.stop.signal.aborted) return;
    const ok = status >= 200 && status < 300;
    const delay = d.resent ? undefined : this.options.retryDelaysMs[d.attempt - 1];
    const willRetry = !ok && delay !== undefined;
    const at = this.clock.now();
    const durationMs = Math.round(performance.now() - started);
    this.log.push({ webhookId: d.id, attempt: d.attempt, url, status, ...(error ? { error } : {}), at, willRetry, durationMs, ...(willRetry ? { nextAt: at + delay } : {}), ...(d.resent ? { resent: true as const } : {}) });
    if (this.log.length > 10_000) this.log.splice(0, this.log.length - 5_000);
    // A resend is a one-off: the delivery's own retries (if any) go on as they were.
    if (d.resent) return;
    if (!willRetry) {
      this.pending.delete(d.id);
      this.recorder?.done(d.id);
      return;
    }
    const next: Delivery = { ...d, attempt: d.attempt + 1, dueAt: this.clock.now() + delay };
    this.track(next);
    this.later(next);
  }

  /** Resolves when no attempt is in flight (scheduled retries are not waited for). */
  async settle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  get busy(): boolean {
    return this.inflight.size > 0;
  }

  async close(): Promise<void> {
    this.stop.abort();
    for (const cancel of this.timers) cancel();
    this.timers.clear();
    await this.settle();
  }
}

/**
 * Reads a reply's body up to `limit` bytes and drops the rest: cancelling the body aborts the
 * request and closes its connection, so a receiver that streams forever costs nothing.
 */
async function readAtMost(res: Response, limit: number): Promise<void> {
  if (!res.body) return;
  const reader = res.body.getReader();
  let read = 0;
  while (read <= limit) {
    const chunk = await reader.read();
    if (chunk.done) return;
    read += chunk.value.byteLength;
  }
  await reader.cancel();
}
