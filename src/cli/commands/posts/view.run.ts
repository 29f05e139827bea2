// `posts view <id>`: one post in full. The post (GET /v1/posts/{id}), its results and the facts
// of media uploaded to the service are read at once; each target shows its latest outcome.
import type { Context } from '../../context.js';
import type { Colors } from '../../../output/colors.js';
import { displayWidth } from '../../../output/width.js';
import { formatLocal, formatRelative } from '../../../output/time.js';
import { checkPostId, findPost, resultsOf, withResults } from '../../../posts/find.js';
import { postStatusText, payloadsOf, textOf } from '../../../posts/outcome.js';
import { userZone } from '../../../posts/zone.js';
import { formatBytes, isPlatform } from '../../../wire/platforms.js';
import { judgeText } from '../../../wire/text-limits.js';
import { PLATFORM_EXTRAS } from '../../../wire/post-extras.js';
import type { Post, PostResult } from '../../../wire/schemas.js';
import type { ApiClient } from '../../../client/types.js';
import { labelledUrl, wrapText } from '../../../output/wrap.js';
import { visibleLine } from '../../../output/terminal-safe.js';
import { resultHandle } from '../../../output/result-columns.js';

import type { ViewFlags } from './manage.js';
import { fieldsOf } from '../../../output/fields-of.js';
import { accountsById } from '../../../accounts/catalog.js';
import { handleOf, unhealthyNote } from '../../../accounts/label.js';
import { latestPerTarget } from '../../../results/latest.js';
import type { SocialAccount } from '../../../wire/account-schemas.js';
import { shellWord } from '../../shell-word.js';

interface MediaInfo {
  name?: string;
  mimeType?: string;
  sizeBytes?: number;
}

type Viewed = Post & { results: PostResult[] };

/** What --fields may name in a viewed post: a post's fields (some posts lack some) and its results. */
const VIEW_FIELDS = [...fieldsOf('posts create'), 'results'];

export async function runView(ctx: Context, rawId: string, opts: ViewFlags): Promise<number> {
  const id = checkPostId(rawId, '<id>');
  // A --tz is checked before anything is sent; the machine's zone is looked up only for the human
  // view (loading the zone data costs ~14 ms that --json does not need).
  const givenZone = opts.tz !== undefined ? userZone(ctx.env, opts.tz) : undefined;
  const client = await ctx.client();
  const out = ctx.output();
  // The human view names each target's account: the accounts are asked for with the post, not after it.
  const accountsSoon = out.structured ? undefined : accountsById(client);
  const [post, results] = await withResults(findPost(client, id), resultsOf(client, id));
  const [media, accounts] = accountsSoon ? await Promise.all([mediaFacts(client, post), accountsSoon]) : [new Map<string, MediaInfo>(), new Map<string, SocialAccount>()];
  const viewed: Viewed = { ...post, results };
  const width = Math.max(40, ctx.io.stdout.columns || 80);
  await out.object(viewed, (shown) => renderPost(shown, { original: viewed, colors: out.colors, zone: givenZone ?? userZone(ctx.env, undefined), now: ctx.clock.now(), width, onTerminal: Boolean(ctx.io.stdout.isTTY), media, accounts }), { id: post.id, pageable: true, fields: VIEW_FIELDS });
  return 0;
}

/** Name, type and size of media the service itself holds (its own /v1/media ids); other URLs are shown as they are. */
async function mediaFacts(client: ApiClient, post: Post): Promise<Map<string, MediaInfo>> {
  const ids = new Map<string, string>();
  for (const payload of Object.values(payloadsOf(post))) {
    for (const item of Array.isArray(payload.media) ? payload.media : []) {
      const url = typeof item?.url === 'string' ? item.url : '';
      const m = url.startsWith(client.baseUrl) ? /\/(med_[A-Za-z0-9]+)\//.exec(url) : null;
      if (m) ids.set(url, m[1]!);
    }
  }
  const facts = new Map<string, MediaInfo>();
  await Promise.all(
    [...ids].map(async ([url, mediaId]) => {
      try {
        facts.set(url, (await client.request<MediaInfo>({ method: 'GET', path: `/v1/media/${mediaId}` })).data);
      } catch {
        // Facts are a nicety: the URL alone is still shown.
      }
    }),
  );
  return facts;
}


interface RenderOptions {
  /**
   * The post as the service sent it: lengths are counted on its texts. The post rendered has its
   * control characters made visible (ESC as `\u001b`), which would count six characters for one.
   */
  original?: Viewed;
  colors: Colors;
  zone: string;
  now: number;
  width: number;
  /** A link is broken to the width only on a terminal: in a pipe it stays whole, to be read. */
  onTerminal?: boolean;
  media: Map<string, MediaInfo>;
  /** The workspace's accounts by id (empty on a service without the route): handles, defaults, health. */
  accounts: Map<string, SocialAccount>;
}

/** The latest result of each platform (results come newest first). */
function latestByPlatform(results: readonly PostResult[]): Map<string, PostResult> {
  const latest = new Map<string, PostResult>();
  for (const r of results) {
    const p = r.platform ?? '?';
    const seen = latest.get(p);
    if (!seen || (r.created_at ?? '') > (seen.created_at ?? '')) latest.set(p, r);
  }
  return latest;
}

/** Each platform's outcome from its targets' latest results: failed if any failed, pending if none reported. */
function targetsFrom(platforms: readonly string[], latestRows: readonly PostResult[]): NonNullable<Post['targets']> {
  const targets: NonNullable<Post['targets']> = {};
  for (const p of platforms) {
    const rows = latestRows.filter((r) => r.platform === p);
    targets[p] = rows.length === 0 ? 'pending' : rows.every((r) => r.success) ? 'published' : 'failed';
  }
  return targets;
}

export function renderPost(post: Viewed, o: RenderOptions): string {
  const c = o.colors;
  const lines: string[] = [];
  const field = (name: string, value: string) => lines.push(...wrapText(value, o.width - 11).map((l, i) => `${i === 0 ? c.dim(name.padEnd(10)) : ' '.repeat(10)} ${l}`));
  const latestRows = latestPerTarget(post.results);
  // A service that sends no `targets` (SyncPostly) still has the results read here: the outcome
  // of each platform is theirs, so a partly failed post reads as such in both APIs.
  const targets = post.targets ?? targetsFrom(Object.keys(payloadsOf(post)), latestRows);
  lines.push(`${c.bold(post.id)}  ${statusColour(c, post.status)(postStatusText({ ...post, targets }, o.now))}`);
  if (post.title) field('title', visibleLine(post.title));
  if (post.scheduledAt) {
    const t = Date.parse(post.scheduledAt);
    const label = post.status === 'scheduled' || post.status === 'draft' ? 'scheduled' : 'went out';
    // In UTC the one line says it all; elsewhere the zone is named and UTC follows. A service's
    // string that is no time is shown as sent.
    const utc = o.zone === 'UTC';
    if (Number.isNaN(t)) field(label, visibleLine(post.scheduledAt));
    else {
      const rel = formatRelative(t, o.now);
      field(label, `${formatLocal(t, o.zone)}${utc ? '' : ` (${o.zone})`}${rel ? ` · ${rel}` : ''}`);
      if (!utc) field('', formatLocal(t, 'UTC'));
    }
  }
  if (post.createdAt) field('created', `${formatLocal(post.createdAt, o.zone)}${post.updatedAt && post.updatedAt !== post.createdAt ? ` · changed ${formatRelative(post.updatedAt, o.now)}` : ''}`);
  const latest = latestByPlatform(post.results);
  const originals = payloadsOf(o.original ?? post);
  for (const [platform, payload] of Object.entries(payloadsOf(post))) {
    lines.push('');
    const text = textOf(payload);
    const original = originals[platform] ?? payload;
    lines.push(`${c.bold(platform)}  ${countText(platform, textOf(original), c)}`);
    for (const paragraph of text.split('\n')) lines.push(...wrapText(paragraph, o.width - 2).map((l) => `  ${l}`));
    const originalMedia: unknown[] = Array.isArray(original.media) ? original.media : [];
    for (const [i, item] of (Array.isArray(payload.media) ? payload.media : []).entries()) {
      const url = typeof item?.url === 'string' ? item.url : '';
      const info = o.media.get(url);
      const name = info?.name ?? fileNameOf(url);
      const facts = [info?.mimeType ?? (typeof item?.type === 'string' ? item.type : undefined), info?.sizeBytes !== undefined ? formatBytes(info.sizeBytes) : undefined].filter(Boolean);
      lines.push(...wrapText(`media: ${name}${facts.length ? ` · ${facts.join(' · ')}` : ''}`, o.width - 2).map((l) => `  ${c.dim(l)}`));
      const sentAlt = (originalMedia[i] as { alt?: unknown } | undefined)?.alt;
      if (typeof item?.alt === 'string') lines.push(...wrapText(`alt (${[...(typeof sentAlt === 'string' ? sentAlt : item.alt)].length}${altMax(platform)}): ${item.alt}`, o.width - 4).map((l) => `    ${c.dim(l)}`));
    }
    lines.push(...renderExtras(platform, payload, o, original));
    const rows = latestRows.filter((r) => (r.platform ?? '?') === platform);
    const named = Array.isArray(payload.accounts) ? payload.accounts.filter((a): a is string => typeof a === 'string') : [];
    const accountIds = [...new Set([...named, ...rows.map((r) => r.social_account_id).filter((a): a is string => typeof a === 'string')])];
    if (accountIds.length === 0) {
      lines.push(...outcomeLines(latest.get(platform), post, platform, o));
      continue;
    }
    // Each target account, then its outcome.
    for (const id of accountIds) {
      // A row the service could not tie to an account belongs to the only account there is.
      const r = rows.find((x) => x.social_account_id === id) ?? (accountIds.length === 1 ? rows.find((x) => !x.social_account_id) : undefined);
      const a = o.accounts.get(id);
      const handle = a ? handleOf(a) : ((r && resultHandle(r)) ?? id);
      lines.push(`  ${c.dim('→')} ${visibleLine(handle)}${a?.isDefault ? c.dim(' (default)') : ''}`);
      lines.push(...outcomeLines(r, post, platform, o, a));
    }
  }
  return lines.join('\n');
}

/** A target's outcome: published (with the link), failed (code, message, and why when its account needs reconnecting), or not sent yet. */
function outcomeLines(r: PostResult | undefined, post: Viewed, platform: string, o: RenderOptions, account?: SocialAccount): string[] {
  const c = o.colors;
  const lines: string[] = [];
  const target = post.targets?.[platform];
  if (r?.success) {
    const url = r.platform_data?.url;
    const link = (text: string) => (url && c.link ? c.link(url, text) : text);
    if (!url || !o.onTerminal) lines.push(`  ${c.green('✓')} published${url ? ` ${link(url)}` : ''}`);
    // Too wide for the line: whole under it, to be copied.
    else lines.push(...labelledUrl(`  ${c.green('✓')} published`, url, o.width, '    ', link(url)));
    const comment = r.first_comment;
    if (comment?.status === 'failed') lines.push(...wrapText(visibleLine(`first comment not posted: ${comment.error?.code ?? 'FAILED'}: ${comment.error?.message ?? ''}`), o.width - 4).map((l, i) => `  ${i === 0 ? c.red('✗') : ' '} ${l}`));
    else if (comment?.status === 'published') lines.push(`  ${c.green('✓')} first comment posted`);
  } else if (r) {
    const note = unhealthyNote(account ?? o.accounts.get(r.social_account_id ?? ''));
    lines.push(...wrapText(visibleLine(`${r.error?.code ?? 'FAILED'}: ${r.error?.message ?? 'the service gave no details'}${note ? ` · ${note}` : ''}`), o.width - 4).map((l, i) => `  ${i === 0 ? c.red('✗') : ' '} ${l}`));
    // The provider's context (the limit hit, the upstream status…): what support reads next, without another command.
    const context = r.error?.context;
    if (context && typeof context === 'object' && Object.keys(context).length > 0) {
      lines.push(...wrapText(visibleLine(`context: ${JSON.stringify(context)}`), o.width - 4).map((l) => `    ${c.dim(l)}`));
    }
    // Where support goes next: the result's context, attempts and account are on its own view.
    if (r.id) lines.push(`    ${c.dim(`details: socialpub results get ${shellWord(r.id)}`)}`);
  } else if (target === 'pending' || post.status === 'draft' || post.status === 'scheduled' || account) {
    lines.push(`  ${c.dim('· not sent yet')}`);
  }
  return lines;
}

const altMax = (platform: string) => (isPlatform(platform) && PLATFORM_EXTRAS[platform].alt ? ` of ${PLATFORM_EXTRAS[platform].alt.max}` : '');

/** A text's count against the platform's limit as it counts ("42 of 300"), red when over; characters on an unknown platform. */
function countText(platform: string, text: string, c: Colors): string {
  const verdict = isPlatform(platform) ? judgeText(platform, text) : undefined;
  const count = verdict ? `${verdict.count.length} of ${verdict.limit}` : `${displayWidth(text)} characters`;
  return verdict && verdict.over > 0 ? c.red(count) : c.dim(count);
}

const partText = (part: unknown) => (typeof (part as { text?: unknown })?.text === 'string' ? (part as { text: string }).text : '');

/** A payload's thread parts (each with its count, taken from `original`, as sent), first comment and settings. */
function renderExtras(platform: string, payload: Record<string, any>, o: RenderOptions, original: Record<string, any>): string[] {
  const c = o.colors;
  const lines: string[] = [];
  const thread: unknown[] = Array.isArray(payload.thread) ? payload.thread : [];
  const originalThread: unknown[] = Array.isArray(original.thread) ? original.thread : thread;
  thread.forEach((part, i) => {
    const text = partText(part);
    const sent = partText(originalThread[i] ?? part);
    lines.push(`  ${c.dim(`thread part ${i + 2} of ${thread.length + 1}`)}  ${countText(platform, sent, c)}`);
    for (const paragraph of text.split('\n')) lines.push(...wrapText(paragraph, o.width - 4).map((l) => `    ${l}`));
  });
  if (typeof payload.firstComment === 'string') {
    const rule = isPlatform(platform) ? PLATFORM_EXTRAS[platform].firstComment : undefined;
    const sent = typeof original.firstComment === 'string' ? original.firstComment : payload.firstComment;
    lines.push(`  ${c.dim(`first comment${rule ? ` (${[...sent].length} of ${rule.max})` : ''}`)}`);
    for (const paragraph of payload.firstComment.split('\n')) lines.push(...wrapText(paragraph, o.width - 4).map((l) => `    ${l}`));
  }
  if (payload.options && typeof payload.options === 'object') {
    const shown = Object.entries(payload.options as Record<string, unknown>).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
    if (shown.length) lines.push(...wrapText(`options: ${shown.join(' · ')}`, o.width - 2).map((l) => `  ${c.dim(l)}`));
  }
  return lines;
}

function statusColour(c: Colors, status: string): (s: string) => string {
  return status === 'published' ? c.green : status === 'failed' ? c.red : status === 'scheduled' ? c.cyan : (s) => s;
}

/** The last part of a media URL, decoded where its escapes decode (a service's URL may hold `%E0%A4%A`). */
function fileNameOf(url: string): string {
  const last = url.split('/').pop() || url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
