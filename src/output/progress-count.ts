// "12,400 / 100,000 rows" on stderr while --all streams to a file or a pipe. Shown only when
// stderr is a terminal and stdout is not (on a terminal the rows themselves show progress, and
// a redrawn line would tear the table); redrawn at most every 100 ms; erased at the end.
import type { Sink } from './writers.js';
import { formatCount } from './count.js';

export interface Progress {
  update(rows: number, total: number | undefined): void;
  done(): void;
}

const silent: Progress = { update() {}, done() {} };

export function createProgress(stderr: Sink, enabled: boolean, now: () => number, intervalMs = 100): Progress {
  if (!enabled) return silent;
  let last = -Infinity;
  let drawn = false;
  return {
    update(rows, total) {
      const t = now();
      if (t - last < intervalMs) return;
      last = t;
      drawn = true;
      const pct = total ? ` (${Math.min(100, Math.floor((rows / total) * 100))}%)` : '';
      stderr.write(`\r\u001b[2K${formatCount(rows)}${total === undefined ? '' : ` / ${formatCount(total)}`} rows${pct}`);
    },
    done() {
      if (drawn) stderr.write('\r\u001b[2K');
      drawn = false;
    },
  };
}
