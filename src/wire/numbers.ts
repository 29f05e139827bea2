// Numbers as people read them, in a fixed locale so output does not depend on the machine.

/** 1234567 → "1,234,567", as 'en' groups a non-negative whole number (one under 1,000 has no group to mark). */
export const groupDigits = (n: number) => (n < 1000 ? String(n) : String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','));

/**
 * 4213 → "4,213". Whole numbers are grouped by hand, as toLocaleString('en-US') groups them: its
 * first call loads the locale data (~10 ms of `posts list`'s start-up, for its footer; 15-25 ms of
 * a bulk `posts check`, for a size in bytes); anything else goes to Intl.
 */
export function formatCount(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return n < 0 ? `-${groupDigits(-n)}` : groupDigits(n);
  return n.toLocaleString('en-US');
}
