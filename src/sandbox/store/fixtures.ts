// `--fixtures N`: N results of published posts, spread over the 30 days before the sandbox
// first started, failures at the configured rate. Generated from the entropy in one pass of
// typed arrays (a million rows in well under a second); texts and ids are derived on demand.
import { PLATFORMS } from '../../wire/platforms.js';
import { hash, STREAM, unit, type Entropy } from '../random.js';
import { FLAG_NO_ACCOUNT, FLAG_SUCCESS, type RowTable } from './row-table.js';

export interface FixtureSpec {
  count: number;
  /** Epoch ms the fixtures end before (the first start); persisted so a reload rebuilds the same rows. */
  anchorMs: number;
  failureRate: number;
}

export interface FixtureLayout {
  /** Posts 0..postCount-1 own rows postStart[j]..postStart[j+1]-1. */
  postStart: Int32Array;
  postCount: number;
  /** Status category (2 published, 3 failed) of each fixture post. */
  postStatus: Uint8Array;
}

export const FIXTURE_SPAN_MS = 30 * 24 * 3600 * 1000;
/** Share of rows whose platform event could not be tied to an account (the API document's rare null). */
export const NO_ACCOUNT_RATE = 0.03;
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
/**
 * Steps through the platform list coprime with its length, so a post's platforms never repeat
 * (1, 2, 4, 5, 7, 8 for nine platforms); derived, so adding a platform changes only the list.
 */
const STEPS = Array.from({ length: PLATFORMS.length - 1 }, (_, i) => i + 1).filter((s) => gcd(s, PLATFORMS.length) === 1);

/**
 * Event time of a fixture row: posts are spaced evenly over the span by their first row, and
 * the targets of one post follow within seconds (never reaching the next post's time).
 */
export function fixtureRowTime(spec: FixtureSpec, firstRow: number, target: number): number {
  const spacing = FIXTURE_SPAN_MS / spec.count;
  return spec.anchorMs - FIXTURE_SPAN_MS + Math.floor(firstRow * spacing) + target * Math.min(1000, Math.floor(spacing));
}

export function generateFixtures(e: Entropy, scope: number, spec: FixtureSpec, rows: RowTable): FixtureLayout {
  const n = spec.count;
  rows.reserve(rows.length + n + 64);
  const starts = new Int32Array(n + 1);
  const statuses = new Uint8Array(n);
  let row = 0;
  let post = 0;
  while (row < n) {
    const h = hash(e, STREAM.fixtureShape, scope, post);
    const targets = Math.min(1 + (h % 4), n - row);
    const first = (h >>> 8) % PLATFORMS.length;
    const step = STEPS[(h >>> 16) % STEPS.length]!;
    starts[post] = row;
    const firstRow = row;
    let failed = false;
    for (let k = 0; k < targets; k++, row++) {
      const success = unit(e, STREAM.outcome, scope, row) >= spec.failureRate;
      const noAccount = unit(e, STREAM.account, scope, row) < NO_ACCOUNT_RATE;
      if (!success) failed = true;
      rows.push(post, (first + k * step) % PLATFORMS.length, (success ? FLAG_SUCCESS : 0) | (noAccount ? FLAG_NO_ACCOUNT : 0), fixtureRowTime(spec, firstRow, k));
    }
    statuses[post] = failed ? 3 : 2;
    post++;
  }
  starts[post] = row;
  return { postStart: starts.slice(0, post + 1), postCount: post, postStatus: statuses.slice(0, post) };
}

const OPENINGS = [
  'Release 4.2 is out',
  'Our spring webinar is open for sign-ups',
  'Behind the scenes with the support team',
  'Customer story: how a small bakery doubled its orders',
  'Tip of the week: schedule posts for when your audience is awake',
  'We are hiring a product designer',
  'Product update: faster uploads and a new calendar view',
  'Community meetup in Lisbon next month',
  'New integration with your favourite CRM',
  'Thank you for 10,000 followers',
];
const CLOSINGS = ['Read more on our blog.', 'Link in bio.', 'Tell us what you think!', 'See you there!', 'More soon.', 'Questions? Reply here.'];

/** The text of fixture post j (short enough for every platform). */
export function fixtureText(e: Entropy, scope: number, post: number): string {
  const h = hash(e, STREAM.fixtureText, scope, post);
  return `${OPENINGS[h % OPENINGS.length]} (#${post + 1}). ${CLOSINGS[(h >>> 8) % CLOSINGS.length]}`;
}
