// The last filter before anything leaves the server (every protocol message and log line): the
// key in use, `whsec_` secrets and credentials written into URLs are masked, as in whatever the
// commands print from a server. Nothing else: a post saying "secret: SPRING25", "Bearer of good
// news" or linking to `…/reset?token=…` comes back exactly as written, or an assistant that
// re-posts what it read would publish the damage.
import { maskEchoed, maskEchoedValue } from '../client/redact.js';

export function redactOutbound(text: string, secrets: readonly string[]): string {
  return maskEchoed(text, secrets);
}

/** A JSON value with every string (and object key) masked; structure untouched. */
export function redactValue<T>(value: T, secrets: readonly string[]): T {
  return maskEchoedValue(value, secrets);
}
