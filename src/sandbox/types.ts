// The sandbox's public types (the library API other code and tests are written against).
import type { FaultPlan } from './chaos.js';
import type { SandboxClock } from './clock.js';
import type { DeliveryLogEntry } from './webhooks.js';

export interface SandboxOptions {
  /** Default 0 (any free port) for the library; the command defaults to 8787. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Makes keys, ids, outcomes, failures and chaos reproducible. */
  seed?: number;
  /** Default: the system clock. Tests pass createManualClock(). */
  clock?: SandboxClock;
  /** Share of targets that fail to publish, 0..1 (default 0.2). */
  failureRate?: number;
  /** Writes per workspace per rolling hour (default 100). */
  writeLimit?: number;
  /** Reads per workspace per rolling hour (default 10000). */
  readLimit?: number;
  webhookUrl?: string;
  /** `whsec_…`; generated when absent (from the seed when there is one). */
  webhookSecret?: string;
  /** Delays before each redelivery of a failed webhook (default 5 s, 30 s, 2 min, 10 min, 1 h, 4 h). */
  webhookRetryDelaysMs?: number[];
  /** How long a webhook receiver may take to answer, in real ms (default 10000). */
  webhookTimeoutMs?: number;
  /** Pre-load this many results (of published posts, spread over the past 30 days) into `demo`. */
  fixtures?: number;
  /** The demo workspace has at least this many social accounts (12 are seeded; extra ones are spread over the platforms), at the data file's first start. */
  accounts?: number;
  /** Real delay added to every response. */
  latencyMs?: number;
  /** Probability per API request of a fault, 0..1. */
  chaos?: number;
  /** How late the "slow" fault answers, in real ms (default 35000: past a 30 s client timeout). */
  chaosSlowMs?: number;
  /** Headers must arrive within this many real ms (default 10000), else 408. */
  headersTimeoutMs?: number;
  /** A request body with no byte for this many real ms (default 10000) is answered 408. */
  bodyTimeoutMs?: number;
  /** A whole request must arrive within this many real ms (default 28000), else 408. */
  requestTimeoutMs?: number;
  /** Open connections at most (default 512); a new one replaces one of whoever holds the most (see http/connection-guard.ts). */
  maxConnections?: number;
  /**
   * Keep state (keys included) in this SQLite database across restarts and crashes (every
   * change committed before its answer); uploaded bytes go in FILE.media/. FILE.lock keeps a
   * second sandbox off the same database while this one runs. Without it: a database in memory.
   */
  dataFile?: string;
  /**
   * The dashboard (at / in a browser) asks for this token, given once as ?token=. Default: none on
   * a loopback host; on any other host a random one (the sandbox's `dashboardUrl` carries it).
   */
  dashboardToken?: string;
}

export interface SandboxWorkspace {
  name: 'demo' | 'other' | 'lapsed' | string;
  apiKey: string;
  addon: boolean;
}

export interface RequestLogEntry {
  /** '' for malformed HTTP (see `malformed`), whose method and path are unknown. */
  method: string;
  /** The path without the query string. */
  path: string;
  /** The query string without "?" ('' when none). */
  query: string;
  /** The authenticated workspace's name, or null. */
  workspace: string | null;
  /** Status sent; 0 when no response was sent (a chaos reset or lost response). */
  status: number;
  /** Sandbox clock time the response was sent. */
  at: number;
  requestId: string;
  /** The chaos fault this request met, if any. */
  fault?: string;
  /** The last four characters of its Idempotency-Key (never the whole key). */
  idempotencyKeyLast4?: string;
  /** Answered from the idempotency record (Idempotent-Replayed: true). */
  replayed?: true;
  /** For malformed HTTP (answered before any route): the parser's or timer's error code. */
  malformed?: string;
}

export interface Sandbox {
  /** 'http://127.0.0.1:PORT' */
  url: string;
  /** Where a browser opens the dashboard: the base URL, with ?token= when one is required. */
  dashboardUrl: string;
  workspaces: SandboxWorkspace[];
  webhookSecret: string;
  clock: SandboxClock;
  /** Requests served, oldest first (the last 10,000). */
  requests: RequestLogEntry[];
  /** Webhook delivery attempts, oldest first. */
  deliveries: DeliveryLogEntry[];
  /** True when the state came from an existing data file. */
  restored: boolean;
  /** What start-up found in the data file worth telling (none so far: SQLite recovers its own log). */
  notices: string[];
  /** Fixture results in the demo workspace (from the options, or from the data file when restored). */
  fixtures: number;
  /** The API key of a workspace by name (throws for an unknown name). */
  key(name: string): string;
  /** Resolves when no webhook delivery or publish work is pending right now. */
  settle(): Promise<void>;
  setWebhookUrl(url: string | undefined): void;
  /**
   * The next API request matching the plan meets its fault, once, as `chaos` would inject it
   * (`lost`: the work is committed, then the connection is cut before the answer), whatever the
   * chaos rate and without drawing from the seeded sequence. Returns what cancels the plan.
   */
  failNext(plan: FaultPlan): () => void;
  close(): Promise<void>;
}
