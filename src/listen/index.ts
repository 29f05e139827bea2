// The webhook listener engine: an HTTP endpoint that verifies, de-duplicates, filters and
// forwards Standard Webhooks deliveries and reports everything as typed events.
// It never prints; the `listen` command renders what it emits.
export { startListener } from './listener.js';
export { isUsableSecret, ListenerStartError, LISTENER_DEFAULTS } from './options.js';
export { systemListenerClock, type ListenerClock } from './clock.js';
export { isLoopbackHost } from '../wire/protocol.js';
export { REJECT_LABEL, REJECT_STATUS } from './outcomes.js';
export type {
  DeliveryEvent,
  DuplicateEvent,
  ForwardedEvent,
  ForwardFailedEvent,
  ForwardSubject,
  Listener,
  ListenerEvents,
  ListenerOptions,
  ListenerStats,
  ReadyEvent,
  RejectedEvent,
  RejectReason,
} from './types.js';
