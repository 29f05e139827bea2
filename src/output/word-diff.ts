// Where two texts differ, word by word: for the confirmation of an edit, where a long text cut to
// the terminal showed before and after identical when the change was near the end. Marked the way
// `git diff --word-diff` marks it: [-removed-]{+added+} without colour, red and green with it.
import type { Colors } from './colors.js';

export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  words: string[];
}

/** Past this many cells the middle is shown as replaced whole: the table would cost more than it tells. */
const MAX_CELLS = 1_000_000;

const wordsOf = (text: string) => text.split(/\s+/).filter((w) => w !== '');

/** The words of `before` and `after` as runs kept, removed and added (removed before added in a change). */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = wordsOf(before);
  const b = wordsOf(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], word: string) => {
    const last = parts[parts.length - 1];
    if (last?.kind === kind) last.words.push(word);
    else parts.push({ kind, words: [word] });
  };
  for (const w of a.slice(0, start)) push('same', w);
  const midA = a.slice(start, a.length - end);
  const midB = b.slice(start, b.length - end);
  for (const [kind, word] of middle(midA, midB)) push(kind, word);
  for (const w of a.slice(a.length - end)) push('same', w);
  return orderChanges(parts);
}

/** The longest common subsequence of the two middles, walked into kept, removed and added words. */
function middle(a: string[], b: string[]): Array<[DiffPart['kind'], string]> {
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS) return [...a.map((w): [DiffPart['kind'], string] => ['removed', w]), ...b.map((w): [DiffPart['kind'], string] => ['added', w])];
  const cols = b.length + 1;
  const table = new Uint32Array((a.length + 1) * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * cols + j] = a[i] === b[j] ? table[(i + 1) * cols + j + 1]! + 1 : Math.max(table[(i + 1) * cols + j]!, table[i * cols + j + 1]!);
    }
  }
  const out: Array<[DiffPart['kind'], string]> = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(['same', a[i]!]);
      i++;
      j++;
    } else if (j >= b.length || (i < a.length && table[(i + 1) * cols + j]! >= table[i * cols + j + 1]!)) out.push(['removed', a[i++]!]);
    else out.push(['added', b[j++]!]);
  }
  return out;
}

/** Within a change (the runs between two kept runs), what was removed comes before what was added. */
function orderChanges(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    if (removed.length) out.push({ kind: 'removed', words: removed });
    if (added.length) out.push({ kind: 'added', words: added });
    [removed, added] = [[], []];
  };
  for (const p of parts) {
    if (p.kind === 'removed') removed.push(...p.words);
    else if (p.kind === 'added') added.push(...p.words);
    else {
      flush();
      out.push(p);
    }
  }
  flush();
  return out;
}

export interface MarkOptions {
  /** Kept words shown on each side of a change; longer runs are cut to "…". */
  context?: number;
}

/**
 * The diff as one line of words: kept runs cut to their context, changes marked. Each word is
 * coloured on its own, so that a line wrapped between words never carries a colour over.
 */
export function markDiff(parts: readonly DiffPart[], colors: Colors, options: MarkOptions = {}): string {
  const context = options.context ?? 5;
  const out: string[] = [];
  parts.forEach((p, index) => {
    if (p.kind === 'same') {
      const first = index === 0;
      const last = index === parts.length - 1;
      const keep = (first ? 0 : context) + (last ? 0 : context);
      if (p.words.length <= keep + 1) out.push(...p.words);
      else {
        if (!first) out.push(...p.words.slice(0, context));
        out.push('…');
        if (!last) out.push(...p.words.slice(p.words.length - context));
      }
      return;
    }
    if (colors.enabled) {
      const paint = p.kind === 'removed' ? colors.red : colors.green;
      out.push(...p.words.map((w) => paint(w)));
    } else {
      const [open, close] = p.kind === 'removed' ? ['[-', '-]'] : ['{+', '+}'];
      const words = p.words.map((w, i) => `${i === 0 ? open : ''}${w}${i === p.words.length - 1 ? close : ''}`);
      // A replacement reads as one piece, as git writes it: [-old-]{+new+}.
      if (p.kind === 'added' && parts[index - 1]?.kind === 'removed') out.push(`${out.pop()}${words.shift()}`);
      out.push(...words);
    }
  });
  return out.join(' ');
}
