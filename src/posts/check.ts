// Every target of one or more posts judged against its platform's rules, locally, without sending
// anything or needing a key: what `posts check` prints and the MCP tool `check_post` returns.
// Problems that stop a post from being read at all (an unknown platform, a missing file, a bulk
// row without its time) come first, as problems; each known platform then gets its rule checks.
import { isPlatform } from '../wire/platforms.js';
import { judgePayload, type RuleCheck } from '../wire/post-rules.js';
import { PLATFORM_NAMES } from '../wire/text-limits.js';
import { collectFacts } from './body.js';
import type { Issue, MediaSource, PostDraft } from './draft.js';
import { mediaInspector, type MediaFacts } from './media-facts.js';
import { payloadFacts, threadable, threadCutChecks, validateDraft } from './validate.js';
import { threadOffer } from '../wire/post-extras.js';
import { atLine } from './bulk/rows.js';

export interface CheckEntry {
  draft: PostDraft | undefined;
  /** Problems found while reading it (a bulk row's time, a malformed field). */
  issues: Issue[];
  /** The bulk file's line the post starts on. */
  line?: number;
  /** Checks judged by the caller, added to the target of their platform (posts check --account: each account's state). */
  extraChecks?: ReadonlyMap<string, readonly RuleCheck[]>;
}

export interface CheckTarget {
  line?: number;
  platform: string;
  /** The platform's name as people know it (X, Instagram). */
  name: string;
  accepted: boolean;
  checks: RuleCheck[];
}

export interface CheckReport {
  /** Every target would be accepted and nothing stopped a post from being read. */
  accepted: boolean;
  problems: Issue[];
  targets: CheckTarget[];
}

/** Judges each entry; media files are read once each (headers only), however many rows share them. */
export async function checkPosts(entries: readonly CheckEntry[], inspect: (m: MediaSource) => Promise<MediaFacts> = mediaInspector()): Promise<CheckReport> {
  const checker = new PostChecker(inspect);
  const { problems, targets } = await checker.judge(entries);
  return { accepted: checker.tally.accepted, problems, targets };
}

/** What the line under the report counts, kept while the posts are judged a batch at a time. */
export interface CheckTally {
  accepted: boolean;
  problems: number;
  targets: number;
  acceptedTargets: number;
  warned: number;
  unknown: number;
  /** The lines of a bulk file with a problem: an input problem named by its line, or a refused target. */
  lines: Set<number>;
}

/**
 * Posts judged a batch at a time (a bulk file read row by row): each batch answers its problems
 * and targets, and the tally adds them up. The inspector's cache spans the batches, so a file
 * shared by many rows is still read once.
 */
export class PostChecker {
  readonly tally: CheckTally = emptyTally();

  constructor(private readonly inspect: (m: MediaSource) => Promise<MediaFacts> = mediaInspector()) {}

  async judge(entries: readonly CheckEntry[]): Promise<{ problems: Issue[]; targets: CheckTarget[] }> {
    const drafts = entries.flatMap((e) => (e.draft ? [e.draft] : []));
    const facts = await collectFacts(drafts, this.inspect);
    const factsOf = (m: MediaSource) => facts.get(m);
    const problems: Issue[] = [];
    const targets: CheckTarget[] = [];
    for (const e of entries) {
      problems.push(...e.issues);
      if (!e.draft) continue;
      // What keeps the post from being read (unknown ids, missing files, missing text); the rules
      // themselves are judged below, target by target.
      problems.push(...atLine(e.line, validateDraft(e.draft, factsOf, { platformRules: false })));
      for (const p of e.draft.platforms) {
        if (!isPlatform(p.platform) || p.text === undefined) continue;
        const ruled = judgePayload(p.platform, payloadFacts(e.draft, p, factsOf));
        const extra = e.extraChecks?.get(p.platform);
        const checks = extra ? [...ruled, ...extra] : ruled;
        if (p.threadCuts) checks.push(...threadCutChecks(p));
        // A text too long for a platform that publishes threads: --thread splits it, as posts create says.
        const tooLong = threadable(p) ? checks.find((c) => c.rule === 'text.length' && c.verdict === 'fail' && c.fix) : undefined;
        if (tooLong) tooLong.fix += threadOffer(p.platform, '--thread');
        const platform = p.platform;
        const name = PLATFORM_NAMES[platform];
        const accepted = checks.every((c) => c.verdict !== 'fail');
        // Built whole rather than spread together: this runs for every row of a bulk file.
        targets.push(e.line === undefined ? { platform, name, accepted, checks } : { line: e.line, platform, name, accepted, checks });
      }
    }
    addToTally(this.tally, problems, targets);
    return { problems, targets };
  }
}

const emptyTally = (): CheckTally => ({ accepted: true, problems: 0, targets: 0, acceptedTargets: 0, warned: 0, unknown: 0, lines: new Set() });

function addToTally(t: CheckTally, problems: readonly Issue[], targets: readonly CheckTarget[]): void {
  t.problems += problems.length;
  if (problems.length) t.accepted = false;
  for (const p of problems) {
    const m = /^line (\d+)\b/.exec(p.field) ?? /^line (\d+)\b/.exec(p.message);
    if (m) t.lines.add(Number(m[1]));
  }
  for (const target of targets) {
    t.targets++;
    if (target.accepted) t.acceptedTargets++;
    else {
      t.accepted = false;
      if (target.line !== undefined) t.lines.add(target.line);
    }
    for (const c of target.checks) {
      if (c.verdict === 'warn') t.warned++;
      else if (c.verdict === 'unknown') t.unknown++;
    }
  }
}

/**
 * "2 of 3 targets would be accepted; X: 1 rule fails" — the line under the table. For a bulk file
 * (`rows`: how many it has) the rows come first, counted as `posts schedule --from-file` counts them.
 */
export function checkSummary(report: CheckReport | CheckTally, rows?: number): string {
  const t = 'lines' in report ? report : tallyOf(report);
  const parts: string[] = [];
  if (rows !== undefined) {
    const bad = [...t.lines].sort((a, b) => a - b);
    const shown = bad.slice(0, 8).join(', ') + (bad.length > 8 ? ', …' : '');
    parts.push(bad.length ? `${bad.length} of ${rows} row${rows === 1 ? '' : 's'} ha${bad.length === 1 ? 's' : 've'} problems (line${bad.length === 1 ? '' : 's'} ${shown})` : `all ${rows} row${rows === 1 ? '' : 's'} would be accepted`);
  }
  parts.push(`${t.acceptedTargets} of ${t.targets} target${t.targets === 1 ? '' : 's'} would be accepted`);
  if (t.problems && rows === undefined) parts.push(`${t.problems} problem${t.problems === 1 ? '' : 's'} in the input`);
  if (t.warned) parts.push(`${t.warned} warning${t.warned === 1 ? '' : 's'} (not refusals)`);
  if (t.unknown) parts.push(`${t.unknown} rule${t.unknown === 1 ? '' : 's'} left to the platform (facts not read here)`);
  return parts.join('; ');
}

function tallyOf(report: CheckReport): CheckTally {
  const t = emptyTally();
  addToTally(t, report.problems, report.targets);
  return { ...t, accepted: report.accepted };
}
