// Turns the command line of `posts create` / `posts schedule` into a validated request: reads
// --file, asks for missing values on a terminal (or names the missing flags), resolves --at,
// and validates everything locally before anything is sent.
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { COMMAND_LINE_LABELS, draftFromBody, draftFromFlags, parseTextFor, partMediaLabel, type FlagValues, type Issue, type MediaSource, type PostDraft } from '../../../posts/draft.js';
import { parseJsonWithLocation } from '../../../wire/json-location.js';
import { mediaInspector, type MediaFacts } from '../../../posts/media-facts.js';
import { collectFacts } from '../../../posts/body.js';
import { mediaNameNotes, threadCutNotes, validateDraft } from '../../../posts/validate.js';
import { catchTime } from '../../../posts/issues.js';
import { InvalidInputError } from '../../../wire/invalid-input.js';
import { machineZone, parseAt, requireFuture, type ResolvedAt } from '../../../posts/when.js';
import { readSource } from './read-source.js';
import { userZone } from '../../../posts/zone.js';
import { askAlt, askAt, askFirstComment, askMedia, askOption, askPartMedia, askPlatforms, askTexts, askThread, askTitle, editUntilValid, extrasTakers, needingTitle, type EditText } from './prompts.js';
import { EditorFailedError, editText } from '../../editor.js';
import { textFromFile } from '../../../posts/compose-input.js';
import { composeFile, parseComposeFile } from '../../../posts/edit-file.js';
import { checkIdempotencyKey } from './send.js';
import { checkPostFields } from './render.js';
import { visible } from '../../../output/terminal-safe.js';
import { PLATFORM_LIMITS, isPlatform } from '../../../wire/platforms.js';
import type { CreateFlags } from './create.js';
import type { ScheduleFlags } from './schedule.js';
import { takesTitles } from '../../dialect-refusals.js';
import { attachAccounts } from '../../../accounts/resolve.js';
import { handleOf } from '../../../accounts/label.js';
import type { SocialAccount } from '../../../wire/account-schemas.js';
import { withPlatformList } from './payload-options.js';

/** The flags compose reads: the payload options (all of `posts create`'s), and --at/--tz of `posts schedule`. */
export type ComposeFlags = CreateFlags & Partial<Pick<ScheduleFlags, 'at' | 'tz'>>;

export interface Composed {
  /** Undefined when an existing draft is scheduled. */
  draft: PostDraft | undefined;
  postId: string | undefined;
  at: ResolvedAt | undefined;
  zone: string;
  facts: Map<MediaSource, MediaFacts>;
  /** Whether any value came from a prompt (then a confirmation is due). */
  prompted: boolean;
  /** The payload values the draft was built from (flags and answers): what Edit starts from. */
  values: FlagValues | undefined;
  /** The time as typed. */
  atInput: string | undefined;
  /** The accounts chosen (--account, or Edit at the confirmation), named in their platforms' payloads. */
  accounts?: SocialAccount[];
}

const PAYLOAD_FLAGS: Array<[keyof CreateFlags, string]> = [
  ['platform', '--platform'],
  ['text', '--text'],
  ['textFile', '--text-file'],
  ['textFor', '--text-for'],
  ['media', '--media'],
  ['title', '--title'],
  ['thread', '--thread'],
  ['firstComment', '--first-comment'],
  ['alt', '--alt'],
  ['option', '--option'],
];

const given = (opts: CreateFlags) =>
  PAYLOAD_FLAGS.filter(([k]) => {
    const v = opts[k];
    return Array.isArray(v) ? v.length > 0 : v !== undefined;
  }).map(([, flag]) => flag);

export async function compose(ctx: Context, opts: ComposeFlags, mode: 'create' | 'schedule', draftId?: string): Promise<Composed> {
  const issues: Issue[] = [];
  const flags = given(opts);
  if (opts.file !== undefined && flags.length) {
    throw new UsageError(`--file cannot be combined with ${flags.join(', ')}`, ['put everything in the file, or leave --file out and use the flags']);
  }
  if (draftId !== undefined && (flags.length || opts.file !== undefined)) {
    throw new UsageError(`a draft id (${draftId}) cannot be combined with ${[...flags, ...(opts.file !== undefined ? ['--file'] : [])].join(', ')}`, [
      'schedule the draft as it is: socialpub posts schedule <draft-id> --at …',
      'or leave the id out to create and schedule a new post from the payload options',
    ]);
  }
  checkOneText(opts);
  // SyncPostly's API has no title: YouTube's need of one is its own, neither asked nor required.
  const titled = await takesTitles(ctx);
  // Checked first: a bad key found after the prompts would lose everything typed.
  checkIdempotencyKey(opts.idempotencyKey);
  checkPostFields(ctx.globals.fields, opts.dryRun);
  const zone = catchTime(issues, () => userZone(ctx.env, opts.tz)) ?? machineZone();
  const inspect = mediaInspector(ctx.signal);
  let prompted = false;
  let draft: PostDraft | undefined;
  let postId = draftId;
  let atInput = opts.at;
  let atField = '--at';
  let at: ResolvedAt | undefined;
  let values: FlagValues | undefined;
  let labels = COMMAND_LINE_LABELS;
  const resolveAt = (input: string) => {
    const now = ctx.clock.now();
    return catchTime(issues, () => {
      const parsed = parseAt(input, { now, zone, field: atField });
      // A late CI re-run: with a key, an absolute time that has passed is sent; the
      // service replays the post the key created, and only refuses a key it has never seen.
      return opts.idempotencyKey !== undefined && parsed.kind !== 'relative' ? parsed : requireFuture(parsed, now, atField, input);
    });
  };

  if (draftId !== undefined) {
    if (draftId.trim() === '') issues.push({ field: '<draft-id>', message: '<draft-id> is empty', fix: 'give the id printed by `socialpub posts create`' });
  } else if (opts.file !== undefined) {
    const src = await readSource(ctx, opts.file, '--file');
    const parsed = parseJsonWithLocation(src.text);
    if (!parsed.ok) {
      const { line, column, message } = parsed.problem;
      throw new UsageError(`--file ${src.label}: invalid JSON at line ${line}, column ${column}: ${message}`, ['fix the JSON (a validator or `jq . file` shows the spot), then run again']);
    }
    const body = draftFromBody(parsed.value, `${src.label}: `, (p) => resolve(src.baseDir, p), issues, { schedule: mode === 'schedule' });
    draft = body.draft;
    postId = body.postId;
    if (atInput === undefined && body.scheduledAt !== undefined) [atInput, atField] = [body.scheduledAt, `${src.label}: scheduledAt`];
  } else {
    // Commas work for --platform as for every repeatable flag (texts and paths may hold commas).
    values = withPlatformList(opts);
    if (opts.textFile !== undefined) {
      const src = await readSource(ctx, opts.textFile, '--text-file');
      values.text = textFromFile(src.text);
      labels = { ...COMMAND_LINE_LABELS, text: `--text-file ${src.label}` };
    }
    // A malformed --text-for is the problem to report, not the text it failed to give.
    const syntax: Issue[] = [];
    parseTextFor(values.textFor ?? [], syntax);
    if (syntax.length) throw new InvalidInputError(syntax);
    const missing = missingFlags(values);
    if (missing.length || (ctx.globals.interactive && (needsMedia(values) || (titled && needingTitle(values).length > 0)))) {
      // Everything given is judged before the first question, so a typo in a flag never costs
      // what was typed at the prompts; and without a terminal a misspelt platform
      // (--text-for blusky=…) is named rather than reported as the text it failed to give.
      const given = draftFromFlags(values, (p) => resolve(process.cwd(), p), issues, labels);
      const givenFacts = await collectFacts([given], inspect);
      issues.push(...validateDraft(given, (m) => givenFacts.get(m), { skipMissing: true, platformRules: opts.localChecks !== false, titleRequired: titled }));
      if (mode === 'schedule' && atInput !== undefined) at = resolveAt(atInput);
      if (issues.length) throw new InvalidInputError(issues);
      if (!ctx.globals.interactive) {
        const needAt = mode === 'schedule' && atInput === undefined;
        throw missingError([...missing, ...(needAt ? ['--at'] : [])], mode);
      }
      await askPayload(ctx, values, titled);
      prompted = true;
    }
    draft = draftFromFlags(values, (p) => resolve(process.cwd(), p), issues, labels);
  }

  const facts = draft ? await collectFacts([draft], inspect) : new Map<MediaSource, MediaFacts>();
  if (draft) issues.push(...validateDraft(draft, (m) => facts.get(m), { platformRules: opts.localChecks !== false, titleRequired: titled }));
  if (draft && issues.length === 0) for (const note of [...mediaNameNotes(draft, (m) => facts.get(m)), ...threadCutNotes(draft)]) ctx.output().warn(note);
  if (mode === 'schedule' && at === undefined) {
    if (atInput === undefined) {
      // The post is judged before the time is asked for, for the same reason.
      if (issues.length) throw new InvalidInputError(issues);
      if (!ctx.globals.interactive) throw missingError(['--at'], mode);
      atInput = await askTime(ctx, zone);
      prompted = true;
    }
    at = resolveAt(atInput);
  }
  if (issues.length) throw new InvalidInputError(issues);
  return { draft, postId, at, zone, facts, prompted, values, atInput };
}

/** --text and --text-file give the same text: one of them. */
export function checkOneText(opts: { text?: string | undefined; textFile?: string | undefined }): void {
  if (opts.text !== undefined && opts.textFile !== undefined) {
    throw new UsageError('--text-file cannot be combined with --text', ['give the text one way: --text "…" for a line, --text-file <file|-> for a file or stdin']);
  }
}

/** Flags a draft cannot do without (media is checked by validation, per platform). */
export function missingFlags(values: FlagValues): string[] {
  const missing: string[] = [];
  const scratch: Issue[] = [];
  const perPlatform = parseTextFor(values.textFor ?? [], scratch);
  const platforms = [...(values.platform ?? []), ...perPlatform.keys()];
  if (platforms.length === 0) missing.push('--platform');
  const textless = platforms.length === 0 || platforms.some((p) => !perPlatform.has(p));
  if (values.text === undefined && textless) missing.push(perPlatform.size ? '--text (or --text-for for every platform)' : '--text');
  return missing;
}

function missingError(missing: string[], mode: string): UsageError {
  return new UsageError(`missing ${missing.join(', ')}`, [
    `pass ${missing.length > 1 ? 'them' : 'it'} on the command line (see \`socialpub posts ${mode} --help\`), or run on a terminal without --no-input/CI to be asked`,
  ], 'MISSING_VALUE');
}

/** Whether a named platform needs media and none was given (asked for on a terminal). */
function needsMedia(values: FlagValues): boolean {
  if ((values.media ?? []).length) return false;
  const platforms = [...(values.platform ?? []), ...parseTextFor(values.textFor ?? [], []).keys()];
  return platforms.some((p) => isPlatform(p) && PLATFORM_LIMITS[p].requiresMedia);
}

/** The editor for composing, and a line on stderr when its text does not fit. */
function editing(ctx: Context): [EditText, (line: string) => void] {
  const say = (line: string) => ctx.output().warn(line);
  const edit: EditText = async (initial, platforms, thread) => {
    try {
      return textFromFile(parseComposeFile(await editText(ctx, composeFile(platforms, initial, thread), { suffix: '.txt' })));
    } catch (err) {
      // The prompt asks again: the text can be typed instead.
      if (!(err instanceof EditorFailedError)) throw err;
      say(`${err.reason}: nothing was taken from it (check $VISUAL / $EDITOR)`);
      return undefined;
    }
  };
  return [edit, say];
}

async function askPayload(ctx: Context, values: FlagValues, titled: boolean): Promise<void> {
  if (!(values.platform ?? []).length && !(values.textFor ?? []).length) values.platform = await askPlatforms(ctx.prompter());
  await askTexts(ctx.prompter(), values, ...editing(ctx));
  if (!(values.media ?? []).length) values.media = await askMedia(ctx.prompter(), values, mediaProblems(values));
  if (titled) await askTitle(ctx.prompter(), values);
}

async function askTime(ctx: Context, zone: string): Promise<string> {
  return askAt(ctx.prompter(), zone, ctx.clock.now);
}

/**
 * What is wrong with a media answer ('' when nothing): the problems of the draft the answer makes
 * whose field starts with `field`, the field left out of their messages.
 */
async function answerProblems(values: FlagValues, field: string): Promise<string> {
  const scratch: Issue[] = [];
  const draft = draftFromFlags(values, (p) => resolve(process.cwd(), p), scratch);
  // A fresh look each time: the user may have fixed the file between two answers.
  const facts = await collectFacts([draft], mediaInspector());
  const problems = [...scratch, ...validateDraft(draft, (m) => facts.get(m))].filter((i) => i.field.startsWith(field));
  // The answer is not a flag: "nope.png: no such file", not "--media nope.png: …"; a name's
  // control characters are shown, as everywhere a file name reaches the terminal.
  const prefix = `${field} `;
  return visible(problems.map((i) => `${i.message.startsWith(prefix) ? i.message.slice(prefix.length) : i.message}${i.fix ? ` (${i.fix})` : ''}`).join('; '));
}

/** What is wrong with a media answer for these platforms ('' when nothing): the prompt asks again. */
function mediaProblems(values: FlagValues): (answer: string[]) => Promise<string> {
  return (media) => answerProblems({ ...values, media }, '--media');
}

/** What is wrong with a thread part's media answer ('' when nothing): the prompt asks again. */
function partMediaProblems(values: FlagValues): (part: number, answer: string[]) => Promise<string> {
  return (part, media) => {
    const partMedia = [...(values.partMedia ?? []).filter((x) => x.part !== part), { part, media }];
    return answerProblems({ ...values, partMedia }, partMediaLabel(part, '').trimEnd());
  };
}

/** The parts of the first thread in the draft (its text, then the replies); empty when none is split. */
function threadParts(c: Composed): string[] {
  const threaded = c.draft?.platforms.find((p) => p.thread?.length);
  return threaded ? [threaded.text ?? '', ...threaded.thread!.map((t) => t.text)] : [];
}

type Change = 'text' | 'platforms' | 'media' | 'title' | 'time' | 'thread' | 'firstComment' | 'alt' | 'option' | 'accounts' | 'partMedia';

/**
 * Edit at the confirmation: one value is asked again, starting from what it is (a text opens in
 * the editor), and the post is composed anew from the rest as it was. `catalog` is the
 * workspace's accounts (empty when the service has no accounts route).
 */
export async function revise(ctx: Context, c: Composed, opts: ComposeFlags, mode: 'create' | 'schedule', catalog: readonly SocialAccount[] = []): Promise<Composed> {
  const prompter = ctx.prompter();
  const titled = await takesTitles(ctx);
  const choices: Array<{ name: string; value: Change }> = [];
  if (c.values) {
    choices.push({ name: 'Text', value: 'text' }, { name: 'Platforms', value: 'platforms' }, { name: 'Media', value: 'media' }, ...(titled ? [{ name: 'Title', value: 'title' as const }] : []));
    // What the chosen platforms take beyond a text (--thread, --first-comment, --alt, --option).
    const takers = extrasTakers(c.values);
    if (takers.thread.length) choices.push({ name: `Thread (${c.values.thread ? 'split' : 'not split'})`, value: 'thread' });
    if (threadParts(c).length > 1) choices.push({ name: 'Media of a thread part', value: 'partMedia' });
    if (takers.firstComment.length) choices.push({ name: 'First comment', value: 'firstComment' });
    // The post's own media, and those given to thread parts: asked the same way, one item after another.
    if (takers.alt.length && ((c.values.media ?? []).length || (c.values.partMedia ?? []).length)) choices.push({ name: 'Alt text of the media', value: 'alt' });
    if (takers.options.length) choices.push({ name: 'A platform setting', value: 'option' });
    if (platformsWithChoice(c, catalog).length) choices.push({ name: 'Accounts', value: 'accounts' });
  }
  if (mode === 'schedule') choices.push({ name: 'Time', value: 'time' });
  const change = choices.length === 1 ? choices[0]!.value : await prompter.select({ message: 'Change what?', choices });
  if (change === 'time' || !c.values) {
    const atInput = await askAt(prompter, c.zone, ctx.clock.now, c.atInput);
    return { ...c, atInput, at: parseAt(atInput, { now: ctx.clock.now(), zone: c.zone }), prompted: true };
  }
  const values: FlagValues = { ...c.values };
  const platforms = c.draft?.platforms.map((p) => p.platform) ?? [];
  if (change === 'text') await reviseText(ctx, values, platforms);
  if (change === 'platforms') {
    values.platform = await askPlatforms(prompter, platforms);
    // Texts of platforms no longer chosen go; new ones without a text are asked for.
    values.textFor = [...parseTextFor(values.textFor ?? [], [])].filter(([p]) => values.platform!.includes(p)).map(([p, t]) => `${p}=${t}`);
    await askTexts(prompter, values, ...editing(ctx));
    // A platform just added may need other media (YouTube: a video) or a title: asked now, not
    // refused after everything typed.
    if (await mediaProblems(values)(values.media ?? [])) values.media = await askMedia(prompter, values, mediaProblems(values), values.media ?? []);
    if (titled) await askTitle(prompter, values);
  }
  if (change === 'media') values.media = await askMedia(prompter, values, mediaProblems(values), values.media ?? []);
  if (change === 'title') values.title = (await prompter.input({ message: 'Title (empty for none)', ...(values.title ? { default: values.title } : {}) })).trim() || undefined;
  if (change === 'title') await askTitle(prompter, values);
  if (change === 'thread') await askThread(prompter, values);
  if (change === 'partMedia') await askPartMedia(prompter, values, threadParts(c), partMediaProblems(values));
  if (change === 'firstComment') await askFirstComment(prompter, values);
  if (change === 'alt') await askAlt(prompter, values);
  if (change === 'option') await askOption(prompter, values);
  const accounts = change === 'accounts' ? await askAccounts(ctx, c, catalog) : c.accounts;
  const next = await compose(ctx, { ...opts, ...values, textFile: undefined, file: undefined, at: c.atInput }, mode);
  // The accounts of a platform the post no longer goes to go with it.
  const goesTo = (a: SocialAccount) => next.draft?.platforms.some((p) => p.platform === a.platform) ?? false;
  return withAccounts({ ...next, prompted: true }, accounts?.filter(goesTo));
}

/** The composed post with these accounts named in its payloads; an account of a platform the post does not go to is invalid input. */
export function withAccounts(c: Composed, accounts: readonly SocialAccount[] | undefined): Composed {
  if (!accounts?.length || !c.draft) return c;
  const issues = attachAccounts(c.draft.platforms, accounts);
  if (issues.length) throw new InvalidInputError(issues);
  return { ...c, accounts: [...accounts] };
}

/** The post's platforms that have more than one account to choose from. */
function platformsWithChoice(c: Composed, catalog: readonly SocialAccount[]): string[] {
  return (c.draft?.platforms ?? []).map((p) => p.platform).filter((p) => catalog.filter((a) => a.platform === p).length > 1);
}

/** Which accounts each platform with several goes to, starting from the current choice (or the default). */
async function askAccounts(ctx: Context, c: Composed, catalog: readonly SocialAccount[]): Promise<SocialAccount[]> {
  const chosen = [...(c.accounts ?? [])];
  for (const platform of platformsWithChoice(c, catalog)) {
    const mine = catalog.filter((a) => a.platform === platform);
    const current = chosen.filter((a) => a.platform === platform);
    const ids = await ctx.prompter().checkbox({
      message: `Accounts for ${platform}`,
      required: true,
      choices: mine.map((a) => ({
        name: `${visible(handleOf(a))}${a.isDefault ? ' (default)' : ''}${a.status && a.status !== 'connected' ? ` (${a.status}: publishing to it fails until it is reconnected)` : ''}`,
        value: a.id,
        // By id: the chosen accounts and this list come from two lookups.
        checked: current.length ? current.some((c) => c.id === a.id) : a.isDefault === true,
      })),
    });
    chosen.splice(0, chosen.length, ...chosen.filter((a) => a.platform !== platform), ...mine.filter((a) => ids.includes(a.id)));
  }
  return chosen;
}

/** The shared text, or the one platform's text the user picks, opened in the editor. */
async function reviseText(ctx: Context, values: FlagValues, platforms: string[]): Promise<void> {
  const own = parseTextFor(values.textFor ?? [], []);
  const shared = platforms.filter((p) => !own.has(p));
  const texts: Array<{ name: string; value: string }> = [
    ...(values.text !== undefined && shared.length ? [{ name: `the text for ${shared.join(', ')}`, value: '' }] : []),
    ...[...own.keys()].map((p) => ({ name: `the text for ${p}`, value: p })),
  ];
  const pick = texts.length === 1 ? texts[0]!.value : await ctx.prompter().select({ message: 'Which text?', choices: texts });
  const [edit, say] = editing(ctx);
  const edited = await editUntilValid(edit, pick === '' ? (values.text ?? '') : own.get(pick)!, pick === '' ? shared : [pick], say, values.thread === true);
  if (edited === undefined) return;
  if (pick === '') values.text = edited;
  else values.textFor = [...own].map(([p, t]) => `${p}=${p === pick ? edited : t}`);
}
