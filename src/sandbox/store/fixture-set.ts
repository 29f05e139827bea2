// The fixture results of one workspace (`--fixtures N`), generated from the entropy at every
// start and never stored: their rows as typed-array columns, which rows each fixture post owns,
// and per platform and per status the ascending positions, so a page at any offset is found by
// position (or a binary search over a few lists), never by a scan. Fixture posts are published
// or failed and never change, so these lists never move.
import { PLATFORMS } from '../../wire/platforms.js';
import type { Entropy } from '../random.js';
import { generateFixtures, type FixtureLayout, type FixtureSpec } from './fixtures.js';
import { IntList } from './int-list.js';
import { RowTable } from './row-table.js';

export class FixtureSet {
  readonly rows = new RowTable();
  readonly layout: FixtureLayout;
  /** Per platform (PLATFORMS order): the rows on it. */
  readonly byPlatform: Int32Array[];
  /** Posts that published everywhere, and posts with a failed target. */
  readonly published: Int32Array;
  readonly failed: Int32Array;

  constructor(
    entropy: Entropy,
    scope: number,
    readonly spec: FixtureSpec,
  ) {
    this.layout = generateFixtures(entropy, scope, spec, this.rows);
    const counts = new Array<number>(PLATFORMS.length).fill(0);
    for (let i = 0; i < this.rows.length; i++) counts[this.rows.platform[i]!]!++;
    const lists = counts.map((n) => new IntList(n));
    for (let i = 0; i < this.rows.length; i++) lists[this.rows.platform[i]!]!.push(i);
    this.byPlatform = lists.map((l) => l.view());
    const published = new IntList(this.layout.postCount);
    const failed = new IntList(this.layout.postCount);
    for (let j = 0; j < this.layout.postCount; j++) (this.layout.postStatus[j] === 2 ? published : failed).push(j);
    this.published = published.view();
    this.failed = failed.view();
  }

  get postCount(): number {
    return this.layout.postCount;
  }

  get rowCount(): number {
    return this.rows.length;
  }

  /** Rows of fixture post `index`. */
  rowRange(index: number): { start: number; count: number } {
    const s = this.layout.postStart;
    return { start: s[index]!, count: s[index + 1]! - s[index]! };
  }
}
