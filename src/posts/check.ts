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
import { payloadFacts, validateDraft } from './validate.js';
import { atLine } from './bulk/rows.js';

export interface CheckEntry {
  draft: PostDraft | undefined;
  /** Problems found while reading it (a bulk row's time, a malformed field). */
  issues: Issue[];
  /** The bulk file's line the post starts on. */
  line?: number;
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
  const drafts = entries.flatMap((e) => (e.draft ? [e.draft] : []));
  const facts = await collectFacts(drafts, inspect);
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
      const checks = judgePayload(p.platform, payloadFacts(e.draft, p, factsOf));
      const platform = p.platform;
      const name = PLATFORM_NAMES[platform];
      const accepted = checks.every((c) => c.verdict !== 'fail');
      // Built whole rather than spread together: this runs for every row of a bulk file.
      targets.push(e.line === undefined ? { platform, name, accepted, checks } : { line: e.line, platform, name, accepted, checks });
    }
  }
  return { accepted: problems.length === 0 && targets.every((t) => t.accepted), problems, targets };
}

/** The lines of a bulk file with a problem: an input problem named by its line, or a refused target. */
export function linesWithProblems(report: CheckReport): number[] {
  const lines = new Set<number>();
  for (const p of report.problems) {
    const m = /^line (\d+)\b/.exec(p.field) ?? /^line (\d+)\b/.exec(p.message);
    if (m) lines.add(Number(m[1]));
  }
  for (const t of report.targets) if (!t.accepted && t.line !== undefined) lines.add(t.line);
  return [...lines].sort((a, b) => a - b);
}

/**
 * "2 of 3 targets would be accepted; X: 1 rule fails" — the line under the table. For a bulk file
 * (`rows`: how many it has) the rows come first, counted as `posts schedule --from-file` counts them.
 */
export function checkSummary(report: CheckReport, rows?: number): string {
  const ok = report.targets.filter((t) => t.accepted).length;
  const parts: string[] = [];
  if (rows !== undefined) {
    const bad = linesWithProblems(report);
    const shown = bad.slice(0, 8).join(', ') + (bad.length > 8 ? ', …' : '');
    parts.push(bad.length ? `${bad.length} of ${rows} row${rows === 1 ? '' : 's'} ha${bad.length === 1 ? 's' : 've'} problems (line${bad.length === 1 ? '' : 's'} ${shown})` : `all ${rows} row${rows === 1 ? '' : 's'} would be accepted`);
  }
  parts.push(`${ok} of ${report.targets.length} target${report.targets.length === 1 ? '' : 's'} would be accepted`);
  if (report.problems.length && rows === undefined) parts.push(`${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} in the input`);
  let warned = 0;
  let unknown = 0;
  for (const t of report.targets) {
    for (const c of t.checks) {
      if (c.verdict === 'warn') warned++;
      else if (c.verdict === 'unknown') unknown++;
    }
  }
  if (warned) parts.push(`${warned} warning${warned === 1 ? '' : 's'} (not refusals)`);
  if (unknown) parts.push(`${unknown} rule${unknown === 1 ? '' : 's'} left to the platform (facts not read here)`);
  return parts.join('; ');
}
