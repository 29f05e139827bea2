// Epoch ms → "2026-12-01T09:00:00.000Z", as Date#toISOString writes it, several times faster:
// the date part is cached per day (pages of results share a handful of days).

const dayCache = new Map<number, string>();
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

export function isoTime(ms: number): string {
  const day = Math.floor(ms / 86_400_000);
  let date = dayCache.get(day);
  if (date === undefined) {
    date = new Date(day * 86_400_000).toISOString().slice(0, 11);
    if (dayCache.size > 4096) dayCache.clear();
    dayCache.set(day, date);
  }
  let rest = ms - day * 86_400_000;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const milli = Math.floor(rest - s * 1000);
  return `${date}${pad2(h)}:${pad2(m)}:${pad2(s)}.${milli < 10 ? `00${milli}` : milli < 100 ? `0${milli}` : milli}Z`;
}
