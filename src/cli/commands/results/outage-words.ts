// How the line that starts an outage names it: a service that cannot be reached, one that
// answers with a failure (a 5xx: it is reachable, and failing), or one that answers in a shape
// socialpub cannot read, where looking at the network would mislead.
import { ResponseShapeError, ServerError } from '../../../client/errors.js';

export function outageStart(err: Error): string {
  if (err instanceof ResponseShapeError) return `service answers in a shape socialpub cannot read: ${err.message}`;
  if (err instanceof ServerError) return `service failing: ${err.answered}`;
  return `service unreachable: ${err.message}`;
}

/** The line's counterpart when the outage ends, in the same words: "reachable again" only after unreachable. */
export function outageEnd(err: Error | undefined): string {
  if (err instanceof ResponseShapeError) return 'service answers in a shape socialpub can read again';
  if (err instanceof ServerError) return 'service working again';
  return 'service reachable again';
}
