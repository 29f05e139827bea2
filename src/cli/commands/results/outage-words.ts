// How the line that starts an outage names it: a service that cannot be reached (or fails), or
// one that answers in a shape socialpub cannot read, where looking at the network would mislead.
import { ResponseShapeError } from '../../../client/errors.js';

export function outageStart(err: Error): string {
  return err instanceof ResponseShapeError ? 'service answers in a shape socialpub cannot read' : 'service unreachable';
}
