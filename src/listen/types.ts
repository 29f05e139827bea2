// The listener engine's public shapes: options, the typed events it emits, and its counters.
// The engine never prints; the `listen` command, the demo and `results wait --listen-port`
// render these events their own way.
import type { EventEmitter } from 'node:events';
import type { WebhookPayload } from '../wire/schemas.js';
import type { ListenerClock } from './clock.js';

export interface ListenerOptions {
  /** Port to bind; 0 picks a free one. Default 4567. */
  port?: number;
  /** Address to bind. Default 127.0.0.1. */
  host?: string;
  /** The one path deliveries are accepted on. Default /webhooks. */
  path?: string;
  /** Standard Webhooks secret (whsec_… or bare base64). Without it nothing is authenticated. */
  secret?: string;
  /** Forward every accepted event (raw body + signature headers) to this http(s) URL. */
  forwardTo?: string;
  /** Per forward attempt. Default 10 s. */
  forwardTimeoutMs?: number;
  /** Retries after the first forward attempt (network error, timeout, 408, 429, 5xx). Default 2. */
  forwardRetries?: number;
  /** First retry delay; doubles per retry, capped at 5 s. Default 500 ms. */
  forwardBackoffMs?: number;
  /** Forwards in flight at once; later ones wait their turn in arrival order. Default 4. */
  forwardConcurrency?: number;
  /** Forwards waiting beyond this are dropped and reported as forward-failed. Default 10,000. */
  forwardQueueLimit?: number;
  /**
   * The listener's time: now() for the timestamp tolerance and receivedAt, sleep() for forward
   * backoff, after() for deadlines (slow bodies, forward timeouts, the close grace). Parts left
   * out are the system's, so a command can pass its own `{ now, sleep }`.
   */
  clock?: Partial<ListenerClock>;
  /** Larger bodies answer 413 without being buffered. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Time allowed for the request line and headers. Default 10 s. */
  headersTimeoutMs?: number;
  /** Time allowed for the body once headers are in. Default 10 s. */
  bodyTimeoutMs?: number;
  /** Only these platforms are emitted and forwarded (others are counted as filtered). */
  platforms?: string[];
  /** Only these statuses are emitted and forwarded. */
  statuses?: string[];
  /** How many webhook ids are remembered for duplicate detection. Default 100,000. */
  dedupeWindow?: number;
}

export interface ReadyEvent {
  url: string;
}

/** An accepted delivery: verified (when a secret is set), parsed, first of its webhook-id. */
export interface DeliveryEvent {
  /** The JSON body, unchanged. */
  payload: Record<string, unknown>;
  /**
   * The body read as the contract's delivery (webhookPayloadSchema): typed fields for those who
   * show or filter them. Undefined when the body does not have that shape (another sender).
   */
  delivery: WebhookPayload | undefined;
  /** The body exactly as received (what the signature covers). */
  raw: Buffer;
  /** The body as UTF-8 text, when the engine kept it (payload was parsed from it): decoded once. */
  text?: string;
  /** The webhook-id header; null only when no secret is set and the sender sent none. */
  webhookId: string | null;
  /** When the delivery finished arriving, RFC 3339 UTC with milliseconds. */
  receivedAt: string;
  /** True when the signature was checked and matched. */
  verified: boolean;
  /** 1-based arrival number among emitted events. */
  seq: number;
}

export interface DuplicateEvent {
  webhookId: string;
}

export type RejectReason =
  | 'forbidden-host'
  | 'browser-request'
  | 'not-found'
  | 'method-not-allowed'
  | 'body-too-large'
  | 'headers-timeout'
  | 'body-timeout'
  | 'bad-request'
  | 'expectation-failed'
  | 'missing-headers'
  | 'bad-timestamp'
  | 'timestamp-too-old'
  | 'timestamp-too-new'
  | 'no-matching-signature'
  | 'malformed-json'
  | 'not-an-object'
  | 'internal-error';

export interface RejectedEvent {
  reason: RejectReason;
  /** The HTTP status answered. */
  status: number;
  /** One line for people, never the event's content. */
  detail: string;
  webhookId: string | null;
}

/** Which delivery a forward report is about: post and platform when the body said so. */
export interface ForwardSubject {
  webhookId: string | null;
  postId?: string;
  platform?: string;
}

export interface ForwardedEvent extends ForwardSubject {
  /** The app's HTTP status (any final answer: 2xx, or a status not worth retrying). */
  status: number;
  attempts: number;
  /** From the first attempt to the final answer. */
  ms: number;
}

export interface ForwardFailedEvent extends ForwardSubject {
  /** Why the last attempt failed, one line. */
  error: string;
  attempts: number;
  /** The app's last status, when it answered at all. */
  status?: number;
}

export interface ListenerEvents {
  ready: [ReadyEvent];
  event: [DeliveryEvent];
  duplicate: [DuplicateEvent];
  rejected: [RejectedEvent];
  forwarded: [ForwardedEvent];
  'forward-failed': [ForwardFailedEvent];
  /** A consumer's handler threw (see safeEmitter in outcomes.ts); without an 'error' handler it is rethrown. */
  error: [Error];
}

export interface ListenerStats {
  /** Every HTTP request seen (including rejected ones). */
  requests: number;
  /** Deliveries accepted: emitted events + duplicates + filtered out. */
  received: number;
  /** Events emitted ('event'). */
  events: number;
  duplicates: number;
  /** Accepted but outside --platform / --status. */
  filtered: number;
  rejected: Partial<Record<RejectReason, number>>;
  rejectedTotal: number;
  forwarded: number;
  forwardFailed: number;
  /** Forwards queued or in flight right now. */
  forwardPending: number;
}

export interface Listener extends EventEmitter<ListenerEvents> {
  /** The full URL to configure as the webhook endpoint. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly verifying: boolean;
  stats(): ListenerStats;
  /** Stops accepting, waits for pending forwards (bounded by their timeouts), frees the port. */
  close(): Promise<void>;
}
