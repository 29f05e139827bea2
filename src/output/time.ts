// Times for people (relative, in their zone) and for scripts (RFC 3339 UTC).

export function formatRelative(iso: string | number | null | undefined, now: number): string {
  if (iso === null || iso === undefined || iso === '') return '';
  const t = typeof iso === 'number' ? iso : Date.parse(iso);
  if (Number.isNaN(t)) return String(iso);
  const diff = t - now;
  const abs = Math.abs(diff);
  const past = diff < 0;
  let text: string;
  if (abs < 45_000) return past ? 'just now' : 'in a few seconds';
  if (abs < 90 * 60_000) text = `${Math.round(abs / 60_000)} min`;
  else if (abs < 36 * 3_600_000) text = `${Math.round(abs / 3_600_000)} h`;
  else text = `${Math.round(abs / 86_400_000)} d`;
  return past ? `${text} ago` : `in ${text}`;
}

/** "2026-12-01 10:00 CET" in the given zone (default: the machine's). */
export function formatLocal(iso: string | number, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).formatToParts(d);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')} ${get('timeZoneName')}`;
}

/** "14:05" local time, for "waiting until 14:05". */
export function formatClock(epochMs: number, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(epochMs);
}
