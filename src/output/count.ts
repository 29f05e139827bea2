// Counts as people read them.

/** 4213 → "4,213" (fixed locale, so output does not depend on the machine). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
