// Retry-After in both forms RFC 9110 allows: delay-seconds ("120") and an HTTP-date
// ("Wed, 21 Oct 2026 07:28:00 GMT"). Anything else is malformed: the caller falls back to
// backoff rather than retrying at once.

/** The delay in ms the header asks for (≥ 0), or undefined when absent or malformed. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const ms = Math.ceil(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  // Date.parse alone is too lenient ("7" parses as a year): require a month name and a time.
  if (!/\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b/i.test(text) || !/\b\d{1,2}:\d{2}:\d{2}\b/.test(text)) {
    return undefined;
  }
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
