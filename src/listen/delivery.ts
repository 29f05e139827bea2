// One complete body, from bytes to event: signature check, JSON, de-duplication, filters, then
// the event (emitted synchronously, so events keep the order bodies completed in), the 204,
// and last the forward, off the sender's critical path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER } from '../wire/protocol.js';
import { webhookPayloadSchema, type WebhookPayload } from '../wire/schemas.js';
import { verify } from '../wire/webhook-signing.js';
import type { Counters, SeenIds } from './bookkeeping.js';
import { receivedAtText } from './clock.js';
import type { Forwarder } from './forwarder.js';
import type { ListenerSettings } from './options.js';
import { isJsonObjectBytes } from './json-object-check.js';
import { accept, verifyDetail, type Emit, type Reject } from './outcomes.js';
import { header, oneLine } from './request.js';
import type { DeliveryEvent } from './types.js';

export interface DeliveryDeps {
  settings: ListenerSettings;
  counters: Counters;
  seen: SeenIds;
  emit: Emit;
  reject: Reject;
  forwarder: Forwarder | undefined;
}

export type DeliveryHandler = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => void;

export function deliveryHandler(deps: DeliveryDeps): DeliveryHandler {
  const { settings, counters, seen, emit, reject, forwarder } = deps;
  const { secret, clock, platforms, statuses } = settings;
  const receivedAt = receivedAtText();

  /** Null when the delivery may go on; otherwise it has been rejected. */
  const verified = (req: IncomingMessage, res: ServerResponse, raw: Buffer, id: string | null, now: number): boolean | null => {
    if (secret === undefined) return false;
    const timestamp = header(req, HEADER.webhookTimestamp);
    const nowSeconds = Math.floor(now / 1000);
    const check = verify(secret, { id: id ?? undefined, timestamp, signature: header(req, HEADER.webhookSignature) }, raw, nowSeconds);
    if (check.ok) return true;
    reject(res, check.reason, verifyDetail(check.reason, nowSeconds, timestamp), id === null ? null : oneLine(id), false);
    return null;
  };

  /**
   * The body's JSON object, for a body the byte check did not pass: parsed, to accept what it
   * may have missed and to say why the rest is refused.
   */
  const parsed = (res: ServerResponse, text: string, id: string | null): Record<string, unknown> | undefined => {
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      reject(res, 'malformed-json', 'body is not valid JSON', id === null ? null : oneLine(id), false);
      return undefined;
    }
    if (!isJsonObject(payload)) {
      reject(res, 'not-an-object', 'body is JSON but not an object', id === null ? null : oneLine(id), false);
      return undefined;
    }
    return payload;
  };

  // A body without the delivery shape has no platform or status to match.
  const filteredOut = (delivery: WebhookPayload | undefined) =>
    (platforms !== undefined && (delivery === undefined || !platforms.has(delivery.platform))) ||
    (statuses !== undefined && (delivery === undefined || !statuses.has(delivery.status)));

  const forward = (req: IncomingMessage, raw: Buffer, id: string | null, delivery: WebhookPayload | undefined) => {
    if (!forwarder) return;
    const headers: Record<string, string> = { 'content-type': header(req, 'content-type') ?? 'application/json' };
    for (const name of [HEADER.webhookId, HEADER.webhookTimestamp, HEADER.webhookSignature]) {
      const v = header(req, name);
      if (v !== undefined) headers[name] = v;
    }
    forwarder.enqueue({ webhookId: id, ...(delivery ? { postId: delivery.postId, platform: delivery.platform } : {}), body: raw, headers });
  };

  return (req, res, raw) => {
    const id = header(req, HEADER.webhookId) ?? null;
    // One reading of the clock for the signature's time window and receivedAt.
    const now = clock.now();
    const isVerified = verified(req, res, raw, id, now);
    if (isVerified === null) return;
    // Decoded once: the NDJSON line is built from the text, and the payload when someone asks.
    const text = raw.toString('utf8');
    // The usual body passes the byte check and is parsed only if someone reads its payload.
    let payload: Record<string, unknown> | undefined;
    if (!isJsonObjectBytes(raw)) {
      payload = parsed(res, text, id);
      if (payload === undefined) return;
    }
    if (id !== null && seen.checkAndAdd(id)) {
      counters.duplicates++;
      emit('duplicate', { webhookId: id });
      return accept(res);
    }
    const event = new Accepted(payload, raw, text, id, receivedAt(now), isVerified);
    if ((platforms !== undefined || statuses !== undefined) && filteredOut(event.delivery)) {
      counters.filtered++;
      return accept(res);
    }
    event.seq = ++counters.events;
    emit('event', event);
    accept(res);
    if (forwarder) forward(req, raw, id, event.delivery);
  };
}

/**
 * An accepted delivery as emitted. The payload is parsed, and read through the schema, only when
 * someone looks (a filter, a forward, a renderer): the NDJSON path prints the body's text and
 * never needs either. A class rather than an object literal with getters, which costs a third of
 * a microsecond per event to create, and this is the hot path.
 */
class Accepted implements DeliveryEvent {
  seq = 0;
  #payload: Record<string, unknown> | undefined;
  #read = false;
  #delivery: WebhookPayload | undefined;

  constructor(
    /** Already parsed, or undefined: the text is then a JSON object (isJsonObjectBytes). */
    payload: Record<string, unknown> | undefined,
    readonly raw: Buffer,
    readonly text: string,
    readonly webhookId: string | null,
    readonly receivedAt: string,
    readonly verified: boolean,
  ) {
    this.#payload = payload;
  }

  get payload(): Record<string, unknown> {
    return (this.#payload ??= JSON.parse(this.text) as Record<string, unknown>);
  }

  get delivery(): WebhookPayload | undefined {
    if (!this.#read) {
      this.#read = true;
      this.#delivery = readDelivery(this.payload);
    }
    return this.#delivery;
  }
}

function readDelivery(payload: Record<string, unknown>): WebhookPayload | undefined {
  const read = webhookPayloadSchema.safeParse(payload);
  return read.success ? read.data : undefined;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
