// Repeatable flags: commander collects every occurrence, and each may hold a comma list, so
// `--platform a,b --platform c` and `--platform a --platform b,c` mean the same.

/** Commander's accumulator for a repeatable flag. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Every occurrence split on commas, trimmed, empties and repeats dropped, order kept. */
export function splitList(values: readonly string[] | undefined): string[] {
  const out: string[] = [];
  for (const v of values ?? []) {
    for (const part of v.split(',')) {
      const t = part.trim();
      if (t && !out.includes(t)) out.push(t);
    }
  }
  return out;
}
