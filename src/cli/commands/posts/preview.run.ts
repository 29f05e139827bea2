// `posts preview`, run: the post from the service (by id) or from the payload options (no
// request), made into the preview model (src/wire/preview), then printed or opened as a page.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';
import { buildBody } from '../../../posts/body.js';
import { COMMAND_LINE_LABELS, draftFromBody, draftFromFlags, type FlagValues, type Issue } from '../../../posts/draft.js';
import { textFromFile } from '../../../posts/compose-input.js';
import { checkPostId, findPost } from '../../../posts/find.js';
import { canChange } from '../../../posts/outcome.js';
import { threadCutNotes } from '../../../posts/validate.js';
import { parseJsonWithLocation } from '../../../wire/json-location.js';
import { InvalidInputError } from '../../../wire/invalid-input.js';
import { previewPost, type PostPreview } from '../../../wire/preview/model.js';
import type { SocialAccount } from '../../../wire/account-schemas.js';
import { accountsById } from '../../../accounts/catalog.js';
import { previewPage } from '../../../wire/preview/html.js';
import { isLoopback } from '../../../config/base-url.js';
import { openInBrowser } from '../../../output/browser.js';
import { readSource } from './read-source.js';
import { renderPreview } from './preview-render.js';
import type { PreviewFlags } from './preview.js';
import { withPlatformList } from './payload-options.js';

const PAYLOAD_FLAGS = ['platform', 'text', 'textFile', 'textFor', 'media', 'title', 'file'] as const;

export async function runPreview(ctx: Context, id: string | undefined, flags: PreviewFlags): Promise<number> {
  const given = PAYLOAD_FLAGS.filter((k) => flags[k] !== undefined);
  if (id !== undefined && given.length) throw new UsageError(`<id> cannot be combined with the payload options (${given.map(flagName).join(', ')})`, ['preview a post on the service by its id, or a post given as options, not both']);
  if (id === undefined && !given.length) throw new UsageError('missing <id> or payload options', ['socialpub posts preview post_8f2k1', 'socialpub posts preview --platform instagram --text "Hello"'], 'MISSING_VALUE');
  const out = ctx.output();
  let preview: PostPreview;
  let baseUrl: string | undefined;
  let accounts = new Map<string, SocialAccount>();
  if (id !== undefined) {
    const client = await ctx.client();
    const postId = checkPostId(id, '<id>');
    // The human view names the target accounts as posts view does: asked for with the post, one request at most.
    const accountsSoon = out.structured || flags.web ? undefined : accountsById(client, { onePage: true });
    const post = await findPost(client, postId);
    // A text over its limit where the platform takes threads is offered the split, as for a post
    // given as options: here the edit that does it, while the post can still change.
    preview = previewPost(post, canChange(post) ? { threadWith: `\`socialpub posts edit ${postId} --thread\`` } : {});
    if (accountsSoon) accounts = await accountsSoon;
    baseUrl = client.baseUrl;
  } else {
    // A text given as options can be split with --thread, as posts create's error offers.
    preview = previewPost(await bodyFromOptions(ctx, flags), flags.file === undefined ? { threadWith: '--thread' } : {});
  }
  if (flags.web) return openPreview(ctx, preview, baseUrl);
  const width = Math.max(40, ctx.io.stdout.columns ?? 80);
  await out.object(preview, (shown) => renderPreview(shown, { colors: out.colors, width, accounts }), { pageable: true, ...(preview.id ? { id: preview.id } : {}) });
  return 0;
}

const flagName = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** The body `posts create` would send, from the same options; local media stay paths (nothing is uploaded). */
async function bodyFromOptions(ctx: Context, flags: PreviewFlags): Promise<unknown> {
  const issues: Issue[] = [];
  if (flags.file !== undefined) {
    if (PAYLOAD_FLAGS.some((k) => k !== 'file' && flags[k] !== undefined)) throw new UsageError('--file cannot be combined with the other payload options');
    const src = await readSource(ctx, flags.file, '--file');
    const parsed = parseJsonWithLocation(src.text);
    if (!parsed.ok) throw new UsageError(`--file ${src.label}: invalid JSON at line ${parsed.problem.line}, column ${parsed.problem.column}: ${parsed.problem.message}`);
    const body = draftFromBody(parsed.value, `${src.label}: `, (p) => resolve(src.baseDir, p), issues, { schedule: true });
    if (!body.draft) throw new InvalidInputError(issues.length ? issues : [{ field: `${src.label}: payloads`, message: 'required' }]);
    return buildBody(body.draft, new Map(), (p) => pathToFileURL(p).href);
  }
  if (flags.platform === undefined && flags.textFor === undefined) throw new UsageError('missing --platform', ['name the targets: --platform instagram,linkedin'], 'MISSING_VALUE');
  const values: FlagValues = withPlatformList(flags);
  let labels = COMMAND_LINE_LABELS;
  if (flags.textFile !== undefined) {
    if (flags.text !== undefined) throw new UsageError('--text-file cannot be combined with --text');
    const src = await readSource(ctx, flags.textFile, '--text-file');
    values.text = textFromFile(src.text);
    // Named as posts create names it: the file the text came from.
    labels = { ...COMMAND_LINE_LABELS, text: `--text-file ${src.label}` };
  }
  const draft = draftFromFlags(values, (p) => resolve(process.cwd(), p), issues, labels);
  // Only problems that leave nothing to show stop a preview: a long text is what it is there to show.
  const fatal = issues.filter((i) => /platform|text-for/.test(i.field) && !/text$/.test(i.field));
  if (fatal.length) throw new InvalidInputError(fatal);
  // A word --thread had to cut is said here too: the preview is where one looks before sending.
  for (const note of threadCutNotes(draft)) ctx.output().warn(note);
  return buildBody(draft, new Map(), (p) => pathToFileURL(p).href);
}

/** The sandbox's page when one answers at the base URL (loopback only), else a local 0600 file. */
async function openPreview(ctx: Context, preview: PostPreview, baseUrl: string | undefined): Promise<number> {
  const out = ctx.output();
  let url: string | undefined;
  let ownFile = false;
  if (baseUrl && preview.id && isLoopback(baseUrl) && (await isSandbox(baseUrl))) url = `${baseUrl.replace(/\/+$/, '')}/dashboard/posts/${encodeURIComponent(preview.id)}`;
  if (!url) {
    const dir = mkdtempSync(join(tmpdir(), 'socialpub-preview-'));
    const file = join(dir, 'preview.html');
    writeFileSync(file, previewPage(preview), { mode: 0o600 });
    url = pathToFileURL(file).href;
    ownFile = true;
  }
  if (await openInBrowser({ env: ctx.env, url, ownFile })) out.info(`opened ${url}`);
  else await out.data(url);
  return 0;
}

async function isSandbox(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(new URL('/healthz', baseUrl), { signal: AbortSignal.timeout(1_500), redirect: 'error' });
    const body = (await res.json()) as { service?: unknown };
    return res.ok && body.service === 'socialpub sandbox';
  } catch {
    return false;
  }
}
