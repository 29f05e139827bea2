// Durations as the contract writes them: 500ms, 30s, 10m, 2h (and 1d); a bare number is seconds.
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!m) return undefined;
  const ms = Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 1000);
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** Short human durations ("750ms", "12s", "3 min", "1 h 5 min"): the client's own formatter. */
export { formatMs as formatDuration } from '../client/format-ms.js';
