// How `thread` split a draft's text, platform by platform, for the MCP write tools to say: how
// many parts each platform got, and each word or URL that had to be cut, in the words the CLI
// uses (posts check's `thread.cut` rows, posts create's warning lines).
import { partsMade, type PostDraft } from './draft.js';
import { threadCutChecks, threadCutNotes } from './validate.js';
import type { RuleCheck } from '../wire/post-rules.js';

export interface ThreadSplitReport {
  platform: string;
  /** 1 when the text went as one post (it fitted, or the platform publishes no threads). */
  parts: number;
  /** posts check's `thread.cut` rows (warn), one per word or URL cut between two parts. */
  warnings: RuleCheck[];
}

/** Each platform with a text: its number of parts and its cut warnings. */
export function threadSplits(draft: PostDraft): ThreadSplitReport[] {
  return draft.platforms.flatMap((p) => (p.text === undefined ? [] : [{ platform: p.platform, parts: 1 + (p.thread?.length ?? 0), warnings: threadCutChecks(p) }]));
}

/**
 * The split in a sentence ("Thread: bluesky: a thread of 6 parts; linkedin: one post, no thread"),
 * then what to tell the user: each cut as posts create warns of it.
 */
export function threadSplitNote(draft: PostDraft): string {
  const parts = threadSplits(draft).map((s) => `${s.platform}: ${partsMade(s.parts)}`);
  const cuts = threadCutNotes(draft);
  return `${parts.length ? `. Thread: ${parts.join('; ')}` : ''}${cuts.length ? `. Tell the user: ${cuts.join('; ')}` : ''}`;
}
