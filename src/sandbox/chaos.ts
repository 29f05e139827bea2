// `--chaos R`: with probability R a request meets a fault, picked from the entropy and the
// request's sequence number, so a seeded run replays the same faults for the same requests.
// A test may also plan one fault for the next request that matches (Sandbox.failNext): the same
// faults, met in the same place of the pipeline, without drawing from the seeded sequence.
import { hash, STREAM, unit, type Entropy } from './random.js';

export const FAULTS = ['error', 'reset', 'lost', 'rate-limited', 'slow'] as const;
/**
 * error: 500 before any work · reset: connection cut before any work · lost: the work is
 * committed, then the connection is cut before the response · rate-limited: 429 with
 * Retry-After: 1 · slow: the response comes after `chaosSlowMs` (past a client's timeout).
 */
export type Fault = (typeof FAULTS)[number];

/** A fault the next matching API request meets, once (whatever the chaos rate). */
export interface FaultPlan {
  fault: Fault;
  method: string;
  /** The exact path (no query), or a pattern it must match. */
  path: string | RegExp;
  /** Only a request of this workspace (by name). */
  workspace?: string;
}

/** What a request is matched on. */
export interface FaultRequest {
  method: string;
  path: string;
  workspace: string | null;
}

export class Chaos {
  private sequence = 0;
  private plans: FaultPlan[] = [];

  constructor(
    /** Changeable while running (the dashboard's fault settings). */
    public rate: number,
    private readonly entropy: Entropy,
  ) {}

  /** Plans a fault; returns what cancels it when no request has met it yet. */
  plan(plan: FaultPlan): () => void {
    const entry = { ...plan };
    this.plans.push(entry);
    return () => {
      this.plans = this.plans.filter((p) => p !== entry);
    };
  }

  pick(request?: FaultRequest): Fault | undefined {
    const planned = request && this.plans.findIndex((p) => matches(p, request));
    if (planned !== undefined && planned >= 0) return this.plans.splice(planned, 1)[0]!.fault;
    if (this.rate <= 0) return undefined;
    const n = this.sequence++;
    if (unit(this.entropy, STREAM.chaos, n) >= this.rate) return undefined;
    return FAULTS[hash(this.entropy, STREAM.chaosKind, n) % FAULTS.length];
  }
}

function matches(p: FaultPlan, r: FaultRequest): boolean {
  if (p.method.toUpperCase() !== r.method) return false;
  if (p.workspace !== undefined && p.workspace !== r.workspace) return false;
  return typeof p.path === 'string' ? p.path === r.path : p.path.test(r.path);
}
