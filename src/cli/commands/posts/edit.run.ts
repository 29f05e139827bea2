// `posts edit <id>`, run: reads the post, applies the payload options (or what was written in the
// editor), checks the result like a new post, shows before → after and asks on a terminal, then
// uploads new media and sends PATCH /v1/posts/{id} with only what differs.
import { ledgerFor } from '../../upload-ledger.js';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { EXIT, UsageError } from '../../cli-error.js';
import { checkEditorRunnable, editText } from '../../editor.js';
import { checkPostId, findPost } from '../../../posts/find.js';
import { COMMAND_LINE_LABELS, parseTextFor, type Issue, type MediaSource, type PlatformDraft } from '../../../posts/draft.js';
import { parseOptionFlags } from '../../../posts/extras.js';
import { isPlatform } from '../../../wire/platforms.js';
import { takesFirstComment } from '../../../wire/post-extras.js';
import { optionIssues, threadCutNotes } from '../../../posts/validate.js';
import { blankIssues, blankTextIssues, EDIT_FLAG_LABELS, notEditable, planEdit, planEditRequests, sendEdit, type PayloadEdit, type PlannedEdit, type PostChanges } from '../../../posts/edit.js';
import { isObject, payloadsOf, textOf, type Payload } from '../../../posts/outcome.js';
import { userZone } from '../../../posts/zone.js';
import { InvalidInputError } from '../../../wire/invalid-input.js';
import type { Post } from '../../../wire/schemas.js';
import { printDryRun } from './dry-run.js';
import { readSource } from './read-source.js';
import { checkOneText } from './compose.js';
import { textFromFile } from '../../../posts/compose-input.js';
import { editorFile, editorPayload, parseEditorFile, sectionChange, sectionValues, type EditedFile, type EditorPayload } from '../../../posts/edit-file.js';
import { checkPostFields, printPost } from './render.js';
import { checkIdempotencyKey } from './send.js';
import { INSTEAD, wentOutMeanwhile } from './withdraw.run.js';
import { oneLine, wrapLines } from '../../../output/wrap.js';
import { displayWidth } from '../../../output/width.js';
import { visible } from '../../../output/terminal-safe.js';
import { plainColors, type Colors } from '../../../output/colors.js';
import { markDiff, wordDiff } from '../../../output/word-diff.js';

import type { EditFlags } from './manage.js';
import { accountFlag } from '../accounts/select.js';
import { warnUnhealthy } from './accounts.js';
import { accountsByPlatform } from '../../../accounts/resolve.js';
import { postWriteChecks, refuseUnsupported, takesTitles } from '../../dialect-refusals.js';
import { withAccountChoice } from '../../account-choice.js';
import { platformList } from './payload-options.js';

const CHANGE_FLAGS: Array<[keyof EditFlags, string]> = [
  ['text', '--text'],
  ['textFile', '--text-file'],
  ['textFor', '--text-for'],
  ['platform', '--platform'],
  ['removePlatform', '--remove-platform'],
  ['media', '--media'],
  ['title', '--title'],
  ['account', '--account'],
  ['thread', '--thread'],
  ['firstComment', '--first-comment'],
  ['option', '--option'],
  // A change too: alone it is told that it needs its --media, not "nothing to change" (or, on a terminal, dropped for the editor).
  ['alt', '--alt'],
];

export async function runEdit(ctx: Context, rawId: string, opts: EditFlags): Promise<number> {
  const id = checkPostId(rawId, '<id>');
  const key = checkIdempotencyKey(opts.idempotencyKey);
  await refuseUnsupported(ctx, postWriteChecks(opts));
  checkPostFields(ctx.globals.fields, opts.dryRun);
  const zone = userZone(ctx.env, opts.tz);
  const given = CHANGE_FLAGS.filter(([k]) => (Array.isArray(opts[k]) ? (opts[k] as string[]).length > 0 : opts[k] !== undefined)).map(([, f]) => f);
  const useEditor = opts.editor === true || (given.length === 0 && ctx.globals.interactive);
  if (useEditor && (opts.text !== undefined || opts.textFile !== undefined || opts.textFor?.length)) {
    throw new UsageError(`--editor cannot be combined with ${opts.text !== undefined ? '--text' : opts.textFile !== undefined ? '--text-file' : '--text-for'}`, ['write the texts in the editor, or give them as flags']);
  }
  if (useEditor) checkEditorRunnable(ctx, '--editor');
  checkOneText(opts);
  // Read before the post is: a missing file costs no request.
  const text = opts.textFile !== undefined ? textFromFile((await readSource(ctx, opts.textFile, '--text-file')).text) : opts.text;
  if (!useEditor && given.length === 0) {
    throw new UsageError('posts edit: nothing to change', [`give ${CHANGE_FLAGS.map(([, f]) => f).join(', ')}, or --editor to write the texts in $EDITOR`]);
  }
  const syntax: Issue[] = [];
  const textFor = parseTextFor(opts.textFor ?? [], syntax);
  if (syntax.length) throw new InvalidInputError(syntax);
  const changes: PostChanges = {
    ...(text !== undefined ? { text } : {}),
    textFor,
    add: platformList('--platform', opts.platform),
    remove: platformList('--remove-platform', opts.removePlatform),
    ...(opts.media?.length ? { media: opts.media } : {}),
    ...(opts.title !== undefined ? { title: opts.title === '' ? null : opts.title } : {}),
    ...(opts.thread ? { thread: true } : {}),
    ...(opts.firstComment !== undefined ? { firstComment: opts.firstComment === '' ? null : opts.firstComment } : {}),
    ...(opts.option?.length ? { option: opts.option } : {}),
    ...(opts.alt?.length ? { alt: opts.alt } : {}),
  };

  const blank = [...blankTextIssues(changes, { ...EDIT_FLAG_LABELS, text: opts.textFile !== undefined ? '--text-file' : '--text' }), ...blankIssues(changes)];
  if (blank.length) throw new InvalidInputError(blank);

  const client = await ctx.client();
  const chosen = await accountFlag(ctx, client, opts.account);
  if (chosen) {
    await warnUnhealthy(ctx, client, chosen.accounts);
    changes.accounts = accountsByPlatform(chosen.accounts);
  }
  const post = await findPost(client, id);
  const refused = notEditable(post, '<id>', INSTEAD(id));
  if (refused) throw refused;
  const out = ctx.output();

  const titleRequired = await takesTitles(ctx);
  const planned = (c: PostChanges) => planEdit(post, c, { resolvePath: (p) => resolve(process.cwd(), p), platformRules: opts.localChecks !== false, titleRequired });
  let plan: PlannedEdit;
  if (useEditor) {
    // On a terminal, texts that do not fit are told and the editor opens again on them, as when
    // composing: an exit would lose what was written. Saved unchanged, the problem is the error.
    let again: { file: string; problem: string } | undefined;
    for (;;) {
      const written = await writeInEditor(ctx, post, changes, again);
      if (written === undefined) return EXIT.ok;
      // The file as written, planned (its unreadable lines are the error, as a rule's problem is).
      // --option values were written into the file (checked there): what it says now wins. A
      // --first-comment too, in each block; where no block is, the flag is judged as without the editor.
      const { option: _option, ...besides } = changes;
      const attempt = async (parsed: EditedFile | undefined) => planned(parsed ? { ...besides, ...changesOf(parsed, opts.thread === true) } : changes);
      try {
        plan = await attempt(written.parsed);
        break;
      } catch (err) {
        if (!(err instanceof InvalidInputError) || !ctx.globals.interactive || (again !== undefined && written.saved === written.opened)) throw err;
        const file = written.saved.replace(/^(?:\/\/ problem: .*\n)*/, '');
        // The problems go on top of the file, which moves every line they name: named again as
        // they will stand (the problems take as many lines whatever numbers they hold).
        const shifted = parseEditorFile('//\n'.repeat(problemText(err).split('\n').length) + file);
        const moved = written.parsed === undefined || shifted === 'empty' ? err : await attempt(unchangedLeft(shifted, written.asIs)).then(() => err, (e: unknown) => (e instanceof InvalidInputError ? e : err));
        const problem = problemText(moved);
        out.warn(`${problem}: opening the editor again (empty the file to give up)`);
        again = { file, problem };
      }
    }
  } else plan = await planned(changes);
  for (const note of threadCutNotes(plan.draft)) out.warn(note);
  if (plan.unchanged) {
    out.notice(`nothing to change: post ${id} already says that`);
    return EXIT.ok;
  }
  if (opts.dryRun) {
    await printDryRun(ctx, { valid: true, issues: [], requests: planEditRequests(plan, key), notes: describeChanges(plan, Infinity) });
    return EXIT.ok;
  }
  const asked = useEditor || (ctx.globals.interactive && !opts.yes);
  if (ctx.globals.interactive && !opts.yes) {
    const width = Math.max(40, ctx.io.stderr.columns || 80);
    ctx.io.stderr.write(`${out.colors.bold(`Changes to ${id}:`)}\n${describeChanges(plan, width - 2, out.colors).map((l) => `  ${l}`).join('\n')}\n`);
    if (!(await ctx.prompter().confirm({ message: 'Send these changes?', default: true }))) {
      out.notice('cancelled: nothing was changed');
      return EXIT.ok;
    }
  }
  let res;
  try {
    const ledger = await ledgerFor(ctx);
    res = await withAccountChoice(ctx, plan.draft, () => sendEdit(client, plan, { idempotencyKey: key, ledger, fresh: !asked }));
  } catch (err) {
    throw wentOutMeanwhile(err, id, 'edited') ?? err;
  }
  let shown: Post = res.data;
  if (res.replayed) {
    out.notice(`this idempotency key (${res.idempotencyKey}) was used before: the edit was not made again; showing the post as it is now`);
    shown = (await client.posts.get(id)).data;
  }
  await printPost(ctx, shown, { zone, replayed: false });
  return EXIT.ok;
}

/** A problem as the top of a reopened editor file says it: the file's sections named without the flag. */
const problemText = (err: InvalidInputError) => [err.message, ...err.hints].join('; ').replace(/--text-for /g, '');

/** The file without the sections that say what the post says now (`asIs`): those are left alone. */
function unchangedLeft(parsed: EditedFile, asIs: EditedFile | 'empty'): EditedFile {
  if (asIs === 'empty') return parsed;
  const sections = new Map([...parsed.sections].filter(([p, s]) => !asIs.sections.has(p) || sectionValues(asIs.sections.get(p)!) !== sectionValues(s)));
  return { ...parsed, sections };
}

/** The texts and the other fields of each section, as planEdit takes them; lines that cannot be read are the error. */
function changesOf(parsed: EditedFile, resplit: boolean): Pick<PostChanges, 'textFor' | 'payloadEdits'> {
  if (parsed.issues.length) throw new InvalidInputError(parsed.issues);
  const texts = new Map<string, string>();
  const edits = new Map<string, PayloadEdit>();
  for (const [platform, section] of parsed.sections) {
    const { text, ...edit } = sectionChange(platform, section, resplit);
    texts.set(platform, text);
    edits.set(platform, edit);
  }
  return { textFor: texts, payloadEdits: edits };
}

/** --first-comment and --option put into the sections the file shows (a bad --option value: exit 2 before the editor opens). */
function withFlagExtras(sections: Map<string, EditorPayload>, changes: PostChanges): void {
  const issues: Issue[] = [];
  const options = parseOptionFlags(changes.option ?? [], [...sections.keys()], issues, COMMAND_LINE_LABELS);
  for (const [p, own] of options) if (isPlatform(p)) issues.push(...optionIssues(p, own, (key) => `--option ${p}.${key}`));
  if (issues.length) throw new InvalidInputError(issues);
  for (const [p, section] of sections) {
    const own = options.get(p);
    const comment = changes.firstComment === undefined || !isPlatform(p) || !takesFirstComment(p) ? {} : changes.firstComment === null ? { firstComment: undefined } : { firstComment: changes.firstComment };
    sections.set(p, { ...section, ...comment, ...(own ? { options: { ...section.options, ...own } } : {}) });
  }
}

/**
 * The file as written (read, and as saved), or undefined when nothing is to change
 * (said on stderr). `again`: the file to open instead, after a problem it names at the top.
 */
async function writeInEditor(
  ctx: Context,
  post: Post,
  changes: PostChanges,
  again?: { file: string; problem: string },
): Promise<{ parsed: EditedFile | undefined; asIs: EditedFile | 'empty'; saved: string; opened: string } | undefined> {
  const current = payloadsOf(post);
  const kept = Object.keys(current).filter((p) => !changes.remove?.includes(p));
  const model = current[kept[0] ?? Object.keys(current)[0] ?? ''];
  const sections = new Map<string, EditorPayload>();
  // New media (--media) replace the current ones: their alt texts come from --alt, not the file.
  for (const p of kept) sections.set(p, editorPayload(current[p], changes.media === undefined));
  for (const p of changes.add ?? []) if (!sections.has(p)) sections.set(p, { text: textOf(model), ...(changes.media === undefined ? { media: editorPayload(model).media ?? [] } : {}) });
  // What the post says now: a section saved as it was is left alone (a text holding a line of
  // --- was not meant as a thread just because another section changed).
  const asIs = parseEditorFile(editorFile(post.id, sections));
  withFlagExtras(sections, changes);
  const initial = again ? `${again.problem.split('\n').map((l) => `// problem: ${l}`).join('\n')}\n${again.file}` : editorFile(post.id, sections);
  // A failing editor rejects (EditorFailedError, exit 1, naming its status): nothing is sent.
  const saved = await editText(ctx, initial, { suffix: '.txt' });
  const out = ctx.output();
  const parsed = parseEditorFile(saved);
  if (parsed === 'empty') {
    out.notice('the file was empty: nothing was changed');
    return undefined;
  }
  if (saved === initial && !again) {
    out.notice('the file was saved as it was: the post is unchanged');
    // Other flags (title, platforms) may still change something.
    return hasOtherChanges(changes) ? { parsed: undefined, asIs, saved, opened: initial } : undefined;
  }
  for (const p of parsed.sections.keys()) if (!sections.has(p)) throw new UsageError(`the editor file has a section "=== ${p} ===", which is not a platform of this post`, ['add a platform with --platform, then write its text in the editor']);
  return { parsed: unchangedLeft(parsed, asIs), asIs, saved, opened: initial };
}

function hasOtherChanges(c: PostChanges): boolean {
  return Boolean(c.add?.length || c.remove?.length || c.media || c.title !== undefined || c.thread || c.firstComment !== undefined || c.option?.length);
}

/** The text in quotes, all of it within `width` columns. */
const quote = (s: string, width: number) => `"${oneLine(s, Math.max(8, width - 2))}"`;

/** "  after  "The text…"" over up to three lines under its label: enough of a new text to check it by. */
const quoteLines = (label: string, s: string, width: number) =>
  wrapLines(`"${s.replace(/\s+/g, ' ').trim()}"`, Math.max(10, width - 9), 3).map((l, i) => `${i === 0 ? `  ${label.padEnd(6)} ` : ' '.repeat(9)}${l}`);

/** "  change … then [-repeat-]{+iterate+}": the words that differ with a few on each side, up to six lines. */
function diffLines(was: string, now: string, width: number, colors: Colors): string[] {
  const parts = wordDiff(was, now);
  const marked = parts.some((p) => p.kind !== 'same') ? markDiff(parts, colors) : '(only spaces or line breaks differ)';
  return wrapLines(marked, Math.max(10, width - 9), 6).map((l, i) => `${i === 0 ? '  change ' : ' '.repeat(9)}${l}`);
}

/** What changes beyond the text and media: the thread's later parts, the first comment, alt texts, settings. */
function extrasChanges(p: PlatformDraft, old: Payload, width: number): string[] {
  const lines: string[] = [];
  const shown = (v: unknown) => (v === undefined ? 'none' : quote(visible(Array.isArray(v) ? v.join(', ') : String(v)), width));
  const oldParts = (Array.isArray(old.thread) ? old.thread : []).map((t) => textOf(isObject(t) ? t : undefined));
  const newParts = (p.thread ?? []).map((t) => t.text);
  if (oldParts.join('\0') !== newParts.join('\0')) {
    const changed = newParts.flatMap((t, i) => (oldParts[i] !== undefined && oldParts[i] !== t ? [i + 2] : []));
    lines.push(`${p.platform} thread: ${oldParts.length + 1} → ${newParts.length + 1} parts${changed.length ? ` (part ${changed.join(', ')} changed)` : ''}`);
  }
  const oldComment = typeof old.firstComment === 'string' ? old.firstComment : undefined;
  if (oldComment !== p.firstComment) lines.push(`${p.platform} first comment: ${shown(oldComment)} → ${p.firstComment === undefined ? 'removed' : shown(p.firstComment)}`);
  // Alt texts of media the post keeps: its own, then each later part's ("thread part 2 alt text 1").
  const altLines = (what: string, media: readonly MediaSource[], oldMedia: unknown) => {
    const oldItems = Array.isArray(oldMedia) ? oldMedia : [];
    media.forEach((m, i) => {
      const was = isObject(oldItems[i]) && typeof oldItems[i].alt === 'string' ? oldItems[i].alt : undefined;
      if (m.onService && was !== m.alt) lines.push(`${p.platform} ${what}alt text ${i + 1}: ${shown(was)} → ${m.alt === undefined ? 'removed' : shown(m.alt)}`);
    });
  };
  altLines('', p.media, old.media);
  const oldThread = Array.isArray(old.thread) ? old.thread : [];
  (p.thread ?? []).forEach((part, t) => altLines(`thread part ${t + 2} `, part.media, isObject(oldThread[t]) ? oldThread[t].media : undefined));
  const before = isObject(old.options) ? old.options : {};
  const after = p.options ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (keys.length) lines.push(`${p.platform} options: ${keys.map((k) => `${visible(k)} ${shown(before[k])} → ${after[k] === undefined ? 'removed' : shown(after[k])}`).join(', ')}`);
  return lines;
}

/**
 * before → after (a long text: where it differs, word by word, then the new text), for the confirmation and the dry run. Texts, titles and media
 * names (the service's, and local file names) are shown with their control characters visible:
 * the confirmation is written straight to the terminal.
 */
export function describeChanges(plan: PlannedEdit, width: number, colors: Colors = plainColors): string[] {
  const before = payloadsOf(plan.before);
  const lines: string[] = [];
  const half = Math.floor((width - 20) / 2);
  for (const p of plan.draft.platforms) {
    const old = before[p.platform];
    const [was, now] = [visible(old ? textOf(old) : ''), visible(p.text ?? '')];
    if (!old) {
      lines.push(`${p.platform}: added · ${quote(now, width - p.platform.length - 12)}`);
      continue;
    }
    if (was !== now) {
      const line = `${p.platform}: "${was}" → "${now}"`;
      // Side by side when it fits; otherwise one line each, so that more of both texts shows.
      if (!line.includes('\n') && displayWidth(line) <= width) lines.push(line);
      // Longer, where the texts differ (a change near the end of a long text would be cut off),
      // then the new text as it will go out.
      else lines.push(`${p.platform}:`, ...diffLines(was, now, width, colors), ...quoteLines('after', now, width));
    }
    const accountsOf = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : 'default');
    if (p.extra.accounts !== undefined && accountsOf(old.accounts) !== accountsOf(p.extra.accounts)) lines.push(`${p.platform} accounts: ${visible(accountsOf(old.accounts))} → ${visible(accountsOf(p.extra.accounts))}`);
    const oldMedia = visible((Array.isArray(old.media) ? old.media : []).map((m) => String((m as { url?: unknown })?.url ?? '').split('/').pop()).join(', ') || 'none');
    const newMedia = visible(p.media.map((m) => m.source.split('/').pop()).join(', ') || 'none');
    if (oldMedia !== newMedia) lines.push(`${p.platform} media: ${oneLine(oldMedia, half)} → ${oneLine(newMedia, half)}`);
    lines.push(...extrasChanges(p, old, half));
  }
  for (const p of plan.removed) lines.push(`${visible(p)}: removed`);
  if (plan.title !== undefined) lines.push(`title: ${plan.before.title ? quote(visible(plan.before.title), half) : 'none'} → ${plan.title === null ? 'removed' : quote(visible(plan.title), half)}`);
  return lines;
}
