// Without a terminal nothing is drawn (no spinner), so a CI log of a command that waits for
// minutes would stay blank: every 30 s of a run's time a line on stderr says it is still going
// and what it last reported. Time is the run's own clock; sleeps check it as they end, and a
// slow timer checks it in between.
export const HEARTBEAT_MS = 30_000;

export interface Heartbeat {
  /** What the command is doing now (the text its spinner would show). */
  status(text: string): void;
  /** Writes the line when 30 s or more have passed since the last one (or the start). */
  check(): void;
  stop(): void;
}

export function createHeartbeat(o: { write(line: string): void; now(): number; label: string; everyMs?: number; checkEveryMs?: number }): Heartbeat {
  const every = o.everyMs ?? HEARTBEAT_MS;
  const start = o.now();
  let last = start;
  let status = '';
  let stopped = false;
  const check = () => {
    if (stopped) return;
    const now = o.now();
    if (now - last < every) return;
    last = now;
    o.write(`${o.label}: still running after ${elapsed(now - start)}${status ? ` · ${status}` : ''}`);
  };
  // Unref'd: it never keeps the process alive.
  const timer = o.checkEveryMs ? setInterval(check, o.checkEveryMs) : undefined;
  timer?.unref();
  return {
    status(text) {
      status = text;
    },
    check,
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
    },
  };
}

function elapsed(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return s % 60 ? `${m} min ${s % 60}s` : `${m} min`;
}
