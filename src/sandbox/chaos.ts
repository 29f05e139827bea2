// `--chaos R`: with probability R a request meets a fault, picked from the entropy and the
// request's sequence number, so a seeded run replays the same faults for the same requests.
import { hash, STREAM, unit, type Entropy } from './random.js';

export const FAULTS = ['error', 'reset', 'lost', 'rate-limited', 'slow'] as const;
/**
 * error: 500 before any work · reset: connection cut before any work · lost: the work is
 * committed, then the connection is cut before the response · rate-limited: 429 with
 * Retry-After: 1 · slow: the response comes after `chaosSlowMs` (past a client's timeout).
 */
export type Fault = (typeof FAULTS)[number];

export class Chaos {
  private sequence = 0;

  constructor(
    /** Changeable while running (the dashboard's fault settings). */
    public rate: number,
    private readonly entropy: Entropy,
  ) {}

  pick(): Fault | undefined {
    if (this.rate <= 0) return undefined;
    const n = this.sequence++;
    if (unit(this.entropy, STREAM.chaos, n) >= this.rate) return undefined;
    return FAULTS[hash(this.entropy, STREAM.chaosKind, n) % FAULTS.length];
  }
}
