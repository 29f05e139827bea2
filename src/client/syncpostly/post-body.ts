// The domain's post (payloads per platform) as SyncPostly's body: one `caption` and `media` (the
// first platform's, assumptions.baseCaption), `platform_configurations` where another platform
// differs or has extras (assumptions.platformConfigurations), and `social_accounts` from each
// payload's accounts, or its platform's only account (assumptions.accounts). Pure: the accounts
// and the media ids come in. What cannot be said in SyncPostly's body is refused, naming the field.
import { AccountChoiceError } from '../../wire/syncpostly/account-choice.js';
import type { SpAccount, SpCreatePost } from '../../wire/syncpostly/schemas.js';
import { InvalidInputError, type InputIssue } from '../../wire/invalid-input.js';

const SP = 'SyncPostly';

/** The payload fields this translation carries; any other is refused (nothing would say it). */
const KNOWN_FIELDS = new Set(['text', 'media', 'thread', 'firstComment', 'options', 'accounts']);

export interface BodyContext {
  accounts: readonly SpAccount[];
  /** The media id behind a domain media URL, when it names one. */
  mediaId(url: string): string | undefined;
}

export type SpPostContent = Required<Pick<SpCreatePost, 'caption' | 'social_accounts' | 'media' | 'platform_configurations'>> & Pick<SpCreatePost, 'media_urls'>;

type MediaList = { ids: string[]; urls: string[] };

interface Piece {
  platform: string;
  caption: string;
  media: MediaList;
  alt: (string | null)[];
  extras: Record<string, unknown>;
  accounts: string[];
}

/** The post's content in SyncPostly's fields; `title` is refused (SyncPostly's posts have none). */
export function spPostContent(payloads: Record<string, unknown>, title: string | null | undefined, ctx: BodyContext): SpPostContent {
  const issues: InputIssue[] = [];
  if (typeof title === 'string') issues.push({ field: 'title', message: `${SP}'s API has no post titles`, fix: 'leave the title out (--title) for this profile' });
  const platforms = Object.keys(payloads).filter((p) => payloads[p] != null);
  if (platforms.length === 0) issues.push({ field: 'payloads', message: 'a post needs at least one platform', fix: 'add a platform' });
  const pieces = platforms.map((p) => piece(p, payloads[p] as Record<string, unknown>, ctx, issues));
  if (issues.length > 0) throw new InvalidInputError(issues, { what: `the post (${SP})` });
  const base = pieces[0]!;
  const configs: Record<string, Record<string, unknown>> = {};
  for (const p of pieces) {
    const cfg: Record<string, unknown> = {};
    if (p.caption !== base.caption) cfg.caption = p.caption;
    if (!sameMedia(p.media, base.media)) {
      if (p.media.ids.length > 0 || base.media.ids.length > 0) cfg.media = p.media.ids;
      if (p.media.urls.length > 0 || base.media.urls.length > 0) cfg.media_urls = p.media.urls;
    }
    if (p.alt.some((a) => a !== null)) cfg.alt_text = p.alt;
    Object.assign(cfg, p.extras);
    if (Object.keys(cfg).length > 0) configs[p.platform] = cfg;
  }
  return {
    caption: base.caption,
    social_accounts: [...new Set(pieces.flatMap((p) => p.accounts))],
    media: base.media.ids,
    ...(base.media.urls.length > 0 ? { media_urls: base.media.urls } : {}),
    platform_configurations: Object.keys(configs).length > 0 ? configs : null,
  };
}

function piece(platform: string, payload: Record<string, unknown>, ctx: BodyContext, issues: InputIssue[]): Piece {
  const at = `payloads.${platform}`;
  for (const key of Object.keys(payload)) {
    if (!KNOWN_FIELDS.has(key)) issues.push({ field: `${at}.${key}`, message: `${SP}'s API has no place for ${at}.${key}`, fix: `leave ${key} out for this profile` });
  }
  const media = mediaList(payload.media, `${at}.media`, ctx, issues);
  const alt = Array.isArray(payload.media) ? payload.media.map((m) => (typeof (m as { alt?: unknown }).alt === 'string' ? (m as { alt: string }).alt : null)) : [];
  const extras: Record<string, unknown> = {};
  if (Array.isArray(payload.thread)) {
    extras.thread = payload.thread.map((part: unknown, i) => {
      const p = part as { text?: unknown; media?: unknown };
      // A part has one list: uploaded media by id and web URLs as they are, in order.
      const partMedia = Array.isArray(p.media) ? p.media.map((m: unknown, j) => mediaRef(m, `${at}.thread.${i}.media.${j}`, ctx, issues)) : [];
      return { caption: p.text, ...(partMedia.length > 0 ? { media: partMedia.map((m) => m.id ?? m.url) } : {}) };
    });
  }
  if (typeof payload.firstComment === 'string') extras.first_comment = payload.firstComment;
  if (payload.options !== undefined) extras.options = payload.options;
  return { platform, caption: typeof payload.text === 'string' ? payload.text : '', media, alt, extras, accounts: accountsOf(platform, payload.accounts, ctx.accounts, issues) };
}

/** Uploaded media go by id (`media`); a web URL SyncPostly fetches itself (`media_urls`); never both in one list, whose order would be lost. */
function mediaList(value: unknown, field: string, ctx: BodyContext, issues: InputIssue[]): MediaList {
  const list: MediaList = { ids: [], urls: [] };
  if (!Array.isArray(value)) return list;
  for (const [i, item] of value.entries()) {
    const ref = mediaRef(item, `${field}.${i}`, ctx, issues);
    if (ref.id !== undefined) list.ids.push(ref.id);
    else if (ref.url !== undefined) list.urls.push(ref.url);
  }
  if (list.ids.length > 0 && list.urls.length > 0) {
    issues.push({ field, message: `${SP} keeps uploaded media and web URLs in two lists, so their order would be lost`, fix: 'give local files only, or URLs only' });
  }
  return list;
}

/** A media item as an uploaded media's id or a web URL; anything else is refused. */
function mediaRef(item: unknown, field: string, ctx: BodyContext, issues: InputIssue[]): { id?: string; url?: string } {
  const url = (item as { url?: unknown } | null)?.url;
  const id = typeof url === 'string' ? ctx.mediaId(url) : undefined;
  if (id !== undefined) return { id };
  if (typeof url === 'string' && /^https?:\/\//i.test(url)) return { url };
  issues.push({ field, message: `${SP} knows no media ${JSON.stringify(url)}: it takes media uploaded to it or a web URL`, fix: 'give a local file (it is uploaded) or an https URL' });
  return {};
}

function accountsOf(platform: string, given: unknown, accounts: readonly SpAccount[], issues: InputIssue[]): string[] {
  const field = `payloads.${platform}.accounts`;
  if (Array.isArray(given) && given.length > 0) {
    const ids = given.map(String);
    for (const id of ids) {
      const account = accounts.find((a) => a.id === id);
      if (!account) issues.push({ field, message: `the workspace has no account ${id} on ${SP}`, fix: 'see socialpub accounts list' });
      else if (account.platform !== platform) issues.push({ field, message: `account ${id} is a ${account.platform} account, not ${platform}`, fix: `name a ${platform} account` });
    }
    return ids;
  }
  const candidates = accounts.filter((a) => a.platform === platform);
  if (candidates.length !== 1) {
    throw new AccountChoiceError(platform, candidates.map((a) => ({ id: a.id, platform: a.platform, username: a.username, displayName: a.display_name })));
  }
  return [candidates[0]!.id];
}

function sameMedia(a: MediaList, b: MediaList): boolean {
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return same(a.ids, b.ids) && same(a.urls, b.urls);
}
