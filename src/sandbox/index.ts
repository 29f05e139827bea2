// The sandbox as a library: `startSandbox({ port: 0, seed, clock })` for tests and the command.
export { startSandbox, SANDBOX_DEFAULTS, SandboxOptionError } from './sandbox.js';
export { createManualClock, systemClock } from './clock.js';
export type { ManualClock, SandboxClock } from './clock.js';
export type { Sandbox, SandboxOptions, SandboxWorkspace, RequestLogEntry } from './types.js';
export type { DeliveryLogEntry } from './webhooks.js';
export { FAILURE_CODES } from './failures.js';
export { StateFileError } from './db/errors.js';
export type { Fault, FaultPlan } from './chaos.js';
