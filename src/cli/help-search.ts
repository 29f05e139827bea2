// `socialpub help WORD` when WORD names no command or topic: the commands and topics whose names,
// summaries, descriptions or options mention it ("help ics", "help move"), so a user who knows
// what they want to do, not what it is called, still finds it.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { HELP_TOPICS } from './help-topics.js';

export interface HelpMatch {
  /** "posts schedule", or "help environment" for a topic. */
  name: string;
  summary: string;
  /** Higher first: a word in the name, then in the summary, then elsewhere. */
  score: number;
}

/** Each word as the start of a word ("move" finds "moves", "moving" not; "ics" finds "-o ics"). */
const wordPattern = (word: string) => new RegExp(`(?:^|[^a-z0-9])${word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i');

/** A word in the name counts most, then in the summary; elsewhere, each mention (up to 4) counts once. */
function scoreOf(words: readonly RegExp[], name: string, summary: string, rest: string): number {
  let score = 0;
  for (const w of words) {
    const mentions = Math.min(4, rest.match(new RegExp(w.source, 'gi'))?.length ?? 0);
    if (w.test(name)) score += 10 + mentions;
    else if (w.test(summary)) score += 5 + mentions;
    else if (mentions) score += mentions;
    else return 0;
  }
  return score;
}

function* commandsOf(cmd: CommandUnknownOpts, path: string[] = []): Generator<[string[], CommandUnknownOpts]> {
  for (const sub of cmd.commands) {
    const here = [...path, sub.name()];
    yield [here, sub];
    yield* commandsOf(sub, here);
  }
}

/** Commands and topics that mention every word, best first (at most `max`). */
export function searchHelp(program: CommandUnknownOpts, words: readonly string[], max = 8): HelpMatch[] {
  const patterns = words.map(wordPattern);
  const matches: HelpMatch[] = [];
  for (const [path, cmd] of commandsOf(program)) {
    const name = path.join(' ');
    const summary = cmd.summary() || cmd.description().split(/(?<=\.)\s/)[0] || '';
    const rest = [cmd.description(), ...cmd.options.map((o) => `${o.flags} ${o.description}`), ...cmd.registeredArguments.map((a) => a.description)].join('\n');
    const score = scoreOf(patterns, name, summary, rest);
    if (score) matches.push({ name, summary, score });
  }
  for (const [topic, { summary, text }] of Object.entries(HELP_TOPICS)) {
    const score = scoreOf(patterns, topic, summary, text());
    if (score) matches.push({ name: `help ${topic}`, summary, score });
  }
  return matches.sort((a, b) => b.score - a.score || a.name.length - b.name.length).slice(0, max);
}
