// Post statuses between the domain and SyncPostly (assumptions: `posted` is our `published`,
// `processing` is shown as itself).
import { STATUS_FROM_SP, STATUS_TO_SP, isSpStatus } from '../../wire/syncpostly/assumptions.js';

export { STATUS_FROM_SP, isSpStatus };

/** Our status filter in SyncPostly's words; a status neither knows is sent as given (the service names it in its 400). */
export function spStatusFilter(statuses: readonly string[] | undefined): string[] | undefined {
  return statuses?.map((s) => STATUS_TO_SP[s] ?? s);
}
