// Questions asked on a terminal when values are missing: platforms, text (optionally one per
// platform), media, the time, and a confirmation showing what will be sent; from its Edit, what
// a post carries beyond them (a thread, a first comment, alt text, each platform's settings).
import { PLATFORM_LIMITS, PLATFORMS, isPlatform, textLength, type Platform } from '../../../wire/platforms.js';
import { PLATFORM_EXTRAS, allowedText, type OptionSpec } from '../../../wire/post-extras.js';
import { judgeFirstComment } from '../../../wire/extras-rules.js';
import { judgeOptions } from '../../../wire/post-options.js';
import { readValue } from '../../../posts/extras.js';
import { basename } from 'node:path';
import { judgeText, overLimit } from '../../../wire/text-limits.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Prompter } from '../../prompter.js';
import { wrapProse } from '../../../output/wrap.js';
import { parseTextFor, type AltFlag, type FlagValues, type PartMedia } from '../../../posts/draft.js';
import { TimeInputError, parseAt, requireFuture } from '../../../posts/when.js';

export async function askPlatforms(prompter: Prompter, current: readonly string[] = []): Promise<string[]> {
  return prompter.checkbox({
    message: 'Platforms to post to',
    choices: PLATFORMS.map((p) => ({
      name: `${p} (up to ${PLATFORM_LIMITS[p].maxText} characters${PLATFORM_LIMITS[p].requiresMedia ? ', needs media' : ''})`,
      value: p,
      short: p,
      ...(current.includes(p) ? { checked: true } : {}),
    })),
    required: true,
  });
}

function platformsOf(values: FlagValues): string[] {
  const perPlatform = parseTextFor(values.textFor ?? [], []);
  return [...new Set([...(values.platform ?? []), ...perPlatform.keys()])];
}

/**
 * A validate function for a text meant for these platforms. With `thread`, a platform that takes
 * threads is not held to one post's limit: the text is split into parts that each fit.
 */
export function textValidator(platforms: readonly string[], allowEmpty: boolean, thread = false): (v: string) => true | string {
  return (v) => {
    if (v.trim() === '') return allowEmpty ? true : 'the text cannot be empty';
    for (const p of platforms) {
      if (!isPlatform(p) || (thread && PLATFORM_EXTRAS[p].thread)) continue;
      const verdict = judgeText(p, v);
      if (verdict.over > 0) return `${overLimit(p, verdict)}${allowEmpty ? ' (leave empty to write one text per platform)' : ''}`;
      if (verdict.bytesOver) return `${p}: ${verdict.bytesOver.length} of ${verdict.bytesOver.max} UTF-8 bytes${allowEmpty ? ' (leave empty to write one text per platform)' : ''}`;
    }
    return true;
  };
}

/**
 * Opens the editor on a text for these platforms (their limits shown, and with `thread` how to
 * mark the parts); undefined when the user gave up (an empty file or a failed editor).
 */
export type EditText = (initial: string, platforms: readonly string[], thread: boolean) => Promise<string | undefined>;

/** The answer to a text prompt that asks for one text per platform instead. */
const PER_PLATFORM = '-';

/**
 * The editor until its text suits these platforms: a text over a limit is shown with the reason
 * (through `say`) and opened again; an empty file gives up (the prompt asks again).
 */
export async function editUntilValid(edit: EditText, initial: string, platforms: readonly string[], say: (line: string) => void, thread = false): Promise<string | undefined> {
  let text = initial;
  for (;;) {
    const edited = await edit(text, platforms, thread);
    // undefined: the editor failed, and `edit` said how.
    if (edited === undefined || edited.trim() === '') return undefined;
    const verdict = textValidator(platforms, false, thread)(edited);
    if (verdict === true) return edited;
    say(`${verdict}: opening the editor again (empty the file to give up)`);
    text = edited;
  }
}

/** One text for these platforms: typed on the line, or (Enter alone) written in the editor. */
async function askText(prompter: Prompter, platforms: readonly string[], edit: EditText, say: (line: string) => void, perPlatform: boolean, thread: boolean): Promise<string> {
  const hint = perPlatform ? `Enter alone: write it in your editor; ${PER_PLATFORM} : one text per platform` : 'Enter alone: write it in your editor';
  for (;;) {
    const answer = await prompter.input({
      message: `Text for ${platforms.join(', ')} (${hint})`,
      validate: (v) => (v.trim() === '' || (perPlatform && v.trim() === PER_PLATFORM) ? true : textValidator(platforms, false, thread)(v)),
    });
    if (answer.trim() !== '') return answer;
    const written = await editUntilValid(edit, '', platforms, say, thread);
    if (written !== undefined) return written;
  }
}

/** Fills --text (or one --text-for per platform) for platforms that have none. */
export async function askTexts(prompter: Prompter, values: FlagValues, edit: EditText, say: (line: string) => void): Promise<void> {
  if (values.text !== undefined) return;
  const perPlatform = parseTextFor(values.textFor ?? [], []);
  const platforms = platformsOf(values);
  const textless = platforms.filter((p) => !perPlatform.has(p));
  if (textless.length === 0) return;
  if (textless.length > 1) {
    const all = await askText(prompter, textless, edit, say, true, values.thread === true);
    if (all.trim() !== PER_PLATFORM) {
      values.textFor = [...(values.textFor ?? []), ...textless.map((p) => `${p}=${all}`)];
      return;
    }
  }
  const added: string[] = [];
  for (const p of textless) added.push(`${p}=${await askText(prompter, [p], edit, say, false, values.thread === true)}`);
  values.textFor = [...(values.textFor ?? []), ...added];
}

/** Asks for media until the answer suits every platform; `problems` says what is wrong ('' when nothing). */
export async function askMedia(prompter: Prompter, values: FlagValues, problems: (media: string[]) => Promise<string>, current: readonly string[] = []): Promise<string[]> {
  const needing = platformsOf(values).filter((p) => isPlatform(p) && PLATFORM_LIMITS[p].requiresMedia);
  const answer = await prompter.input({
    ...(current.length ? { default: current.join(', ') } : {}),
    message: needing.length ? `Media files or URLs, comma-separated (${needing.join(', ')} need${needing.length === 1 ? 's' : ''} at least one)` : 'Media files or URLs, comma-separated (empty for none)',
    validate: async (v) => {
      if (needing.length && v.trim() === '') return `${needing.join(', ')} need media`;
      return (await problems(splitMedia(v))) || true;
    },
  });
  return splitMedia(answer);
}

/**
 * Media of one later part of a thread: the part (by its start, as the first threading platform
 * splits it), then its files or URLs, judged as the post's own; empty for none.
 */
export async function askPartMedia(prompter: Prompter, values: FlagValues, parts: readonly string[], problems: (part: number, media: string[]) => Promise<string>): Promise<void> {
  const current = (n: number) => values.partMedia?.find((x) => x.part === n)?.media ?? [];
  const choices = parts.slice(1).map((text, i) => {
    const n = i + 2;
    const has = current(n);
    return { name: `part ${n}: ${oneLineStart(text)}${has.length ? ` (now ${has.map((m) => basename(m)).join(', ')})` : ''}`, value: n, short: `part ${n}` };
  });
  const part = choices.length === 1 ? choices[0]!.value : await prompter.select<number>({ message: 'Media for which part of the thread?', choices });
  const before = current(part);
  const answer = await prompter.input({
    ...(before.length ? { default: before.join(', ') } : {}),
    message: `Media for thread part ${part}, files or URLs, comma-separated (empty for none)`,
    validate: async (v) => (await problems(part, splitMedia(v))) || true,
  });
  const media = splitMedia(answer);
  // An item still in its place keeps the alt text it was given.
  const alt = (values.partMedia?.find((x) => x.part === part)?.alt ?? []).filter((a) => media[a.index] === before[a.index]);
  values.partMedia = [...(values.partMedia ?? []).filter((x) => x.part !== part), ...(media.length ? [{ part, media, ...(alt.length ? { alt } : {}) }] : [])].sort((a, b) => a.part - b.part);
}

/** The start of a text on one line, to tell parts apart in a list. */
const oneLineStart = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
};

/** The chosen platforms that cannot do without a title (YouTube), when none was given. */
export function needingTitle(values: FlagValues): string[] {
  if (values.title?.trim()) return [];
  return platformsOf(values).filter((p) => isPlatform(p) && PLATFORM_LIMITS[p].rules.title?.required);
}

/** Asks for the title when a chosen platform cannot do without one (YouTube) and none was given. */
export async function askTitle(prompter: Prompter, values: FlagValues): Promise<void> {
  const needing = needingTitle(values);
  if (needing.length === 0) return;
  const max = Math.min(...needing.map((p) => (isPlatform(p) && PLATFORM_LIMITS[p].rules.title?.max) || Infinity));
  const answer = await prompter.input({
    message: `Title (${needing.join(', ')} need${needing.length === 1 ? 's' : ''} one, at most ${max} characters)`,
    validate: (v) => (v.trim() === '' ? `${needing.join(', ')} need${needing.length === 1 ? 's' : ''} a title` : textLength(v.trim()) > max ? `${textLength(v.trim())} characters: at most ${max}` : true),
  });
  values.title = answer.trim();
}

/**
 * The files of a media answer, comma-separated. A file dragged onto the terminal arrives quoted
 * ('/a/my photo.jpg') or with its spaces escaped (/a/my\ photo.jpg), several separated by
 * spaces: such an answer is read as a shell would read it. Typed without quotes, a path keeps its
 * spaces, and only commas separate. A leading ~/ is the home folder.
 */
export function splitMedia(answer: string): string[] {
  // "~/Pictures/a.jpg": the prompt is no shell, but a home folder is meant all the same.
  return shellWords(answer).map((item) => (item.startsWith('~/') ? join(homedir(), item.slice(2)) : item));
}

function shellWords(answer: string): string[] {
  if (!/^\s*['"]|\\[\s'"()&]/.test(answer)) return answer.split(',').map((s) => s.trim()).filter(Boolean);
  const items: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  const end = () => {
    if (started) items.push(current);
    [current, started] = ['', false];
  };
  for (let i = 0; i < answer.length; i++) {
    const ch = answer[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else current += ch;
    } else if (ch === "'" || ch === '"') [quote, started] = [ch, true];
    else if (ch === '\\' && i + 1 < answer.length) [current, started, i] = [current + answer[i + 1], true, i + 1];
    else if (ch === ',' || /\s/.test(ch)) end();
    else [current, started] = [current + ch, true];
  }
  end();
  return items.filter(Boolean);
}

/** The chosen platforms that take a thread, a first comment, alt text, or settings. */
export function extrasTakers(values: FlagValues): Record<'thread' | 'firstComment' | 'alt' | 'options', Platform[]> {
  const platforms = platformsOf(values).filter(isPlatform);
  return {
    thread: platforms.filter((p) => PLATFORM_EXTRAS[p].thread),
    firstComment: platforms.filter((p) => PLATFORM_EXTRAS[p].firstComment),
    alt: platforms.filter((p) => PLATFORM_EXTRAS[p].alt),
    options: platforms.filter((p) => PLATFORM_EXTRAS[p].options.length > 0),
  };
}

/** Whether a text too long for one post is split into a thread (--thread), for the platforms that take threads. */
export async function askThread(prompter: Prompter, values: FlagValues): Promise<void> {
  const takers = extrasTakers(values).thread;
  const split = await prompter.select<boolean>({
    message: `A text too long for one post on ${takers.join(', ')}:`,
    choices: [
      { name: 'split it into a thread (at paragraphs, then sentences, then words; a line holding only --- starts a part)', value: true, short: 'a thread' },
      { name: 'keep it one post (a text over the limit is refused)', value: false, short: 'one post' },
    ],
  });
  values.thread = split ? true : undefined;
}

/** The first comment (--first-comment), judged as each platform that takes one counts it; empty for none. */
export async function askFirstComment(prompter: Prompter, values: FlagValues): Promise<void> {
  const takers = extrasTakers(values).firstComment;
  const answer = await prompter.input({
    message: `First comment, under the post on ${takers.join(', ')} (empty for none)`,
    ...(values.firstComment !== undefined ? { default: values.firstComment } : {}),
    validate: (v) => {
      if (v.trim() === '') return true;
      const refused = takers.map((p) => judgeFirstComment(p, v)).find((c) => c.verdict === 'fail');
      return refused ? `${refused.message}${refused.fix ? ` (${refused.fix})` : ''}` : true;
    },
  });
  values.firstComment = answer.trim() === '' ? undefined : answer;
}

/**
 * Alt text for each media item, the post's own (--alt) and then each thread part's, within the
 * strictest limit of the platforms that show alt text; empty for none.
 */
export async function askAlt(prompter: Prompter, values: FlagValues): Promise<void> {
  const max = Math.min(...extrasTakers(values).alt.map((p) => PLATFORM_EXTRAS[p].alt!.max));
  values.alt = await askAlts(prompter, values.media ?? [], values.alt, max, '');
  const parts: PartMedia[] = [];
  for (const p of values.partMedia ?? []) parts.push({ ...p, alt: await askAlts(prompter, p.media, p.alt, max, ` (thread part ${p.part})`) });
  if (values.partMedia) values.partMedia = parts;
}

/** One alt text per item, starting from the current ones; `where` tells a thread part's items from the post's own. */
async function askAlts(prompter: Prompter, media: readonly string[], current: readonly AltFlag[] | undefined, max: number, where: string): Promise<AltFlag[]> {
  const alt: AltFlag[] = [];
  for (const [index, item] of media.entries()) {
    const now = current?.find((a) => a.index === index)?.text;
    const answer = await prompter.input({
      message: `Alt text for ${basename(item)}${where}, what it shows for people who cannot see it (at most ${max} characters; empty for none)`,
      ...(now !== undefined ? { default: now } : {}),
      validate: (v) => (textLength(v.trim()) > max ? `${textLength(v.trim())} characters: at most ${max}` : true),
    });
    if (answer.trim()) alt.push({ index, text: answer.trim() });
  }
  return alt;
}

/** One platform's setting (--option PLATFORM.KEY=VALUE): the platform, the setting, then its value from what it takes. */
export async function askOption(prompter: Prompter, values: FlagValues): Promise<void> {
  const takers = extrasTakers(values).options;
  const platform = takers.length === 1 ? takers[0]! : await prompter.select<Platform>({ message: 'Settings of which platform?', choices: takers.map((p) => ({ name: p, value: p })) });
  const current = new Map((values.option ?? []).map((o) => [o.slice(0, o.indexOf('=')), o.slice(o.indexOf('=') + 1)]));
  const specs = PLATFORM_EXTRAS[platform].options;
  const key = await prompter.select<string>({
    message: `Which ${platform} setting?`,
    choices: specs.map((s) => {
      const set = current.get(`${platform}.${s.key}`);
      return { name: `${s.key}: ${s.describe}${set !== undefined ? ` (now ${set})` : ''}`, value: s.key, short: s.key };
    }),
  });
  const spec = specs.find((s) => s.key === key)!;
  const name = `${platform}.${spec.key}`;
  const value = await askOptionValue(prompter, platform, spec, current.get(name));
  if (value === undefined) current.delete(name);
  else current.set(name, value);
  values.option = [...current].map(([k, v]) => `${k}=${v}`);
}

/** A setting's value as --option writes it; undefined to leave it unset. */
async function askOptionValue(prompter: Prompter, platform: Platform, spec: OptionSpec, current: string | undefined): Promise<string | undefined> {
  const UNSET = '';
  if (spec.kind === 'enum' || spec.kind === 'boolean') {
    const values = spec.kind === 'enum' ? spec.values : ['true', 'false'];
    const answer = await prompter.select<string>({
      message: `${platform}.${spec.key} (${spec.describe})`,
      choices: [...values.map((v) => ({ name: v === current ? `${v} (now)` : v, value: v, short: v })), { name: '(not set: the platform decides)', value: UNSET, short: 'not set' }],
    });
    return answer === UNSET ? undefined : answer;
  }
  const answer = await prompter.input({
    message: `${platform}.${spec.key}: ${spec.describe} (${allowedText(spec)}; empty: not set)`,
    ...(current !== undefined ? { default: current } : {}),
    validate: (v) => {
      if (v.trim() === '') return true;
      const problem = judgeOptions(platform, { [spec.key]: readValue(spec, v) })[0];
      return problem ? `${problem.message} (${problem.fix})` : true;
    },
  });
  return answer.trim() === '' ? undefined : answer.trim();
}

export async function askAt(prompter: Prompter, zone: string, now: () => number, current?: string): Promise<string> {
  return prompter.input({
    ...(current !== undefined ? { default: current } : {}),
    message: `When? ("tomorrow 9am", "mon 10:00", "YYYY-MM-DD HH:MM" in ${zone}, RFC 3339, or +30m / +2h / +1d)`,
    validate: (v) => {
      try {
        requireFuture(parseAt(v, { now: now(), zone }), now());
        return true;
      } catch (e) {
        if (e instanceof TimeInputError) return e.hint ? `${e.message} (${e.hint})` : e.message;
        throw e;
      }
    },
  });
}

export type Decision = 'send' | 'edit' | 'cancel';

/** Shows what will be sent (on stderr, where prompts live) and asks: send, change something, or stop. */
export async function confirmSend(prompter: Prompter, stderr: { write(s: string): boolean; columns?: number }, summary: string): Promise<Decision> {
  // The note wraps between words: broken by the terminal, "-\n-dry-run" would not read as a flag.
  stderr.write(`\nThis will be sent:\n\n${summary}\n\n${wrapProse('(the exact requests: run it again with --dry-run)', stderr.columns)}\n\n`);
  return prompter.select<Decision>({
    message: 'Send it?',
    choices: [
      { name: 'Send', value: 'send' },
      { name: 'Edit (change a value; the others are kept)', value: 'edit', short: 'Edit' },
      { name: 'Cancel (nothing is sent)', value: 'cancel', short: 'Cancel' },
    ],
  });
}
