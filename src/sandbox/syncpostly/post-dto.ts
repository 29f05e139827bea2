// A post of the store as SyncPostly's PostDto, whichever dialect made it: the caption and media
// are those it was sent with (while a platform still uses them), else the first platform's; each
// platform's differences go to platform_configurations (assumptions.baseCaption), social_accounts are every payload's accounts; media are ids of this
// workspace's uploads, other URLs go to `media_urls` (assumptions.mediaUrls).
import { STATUS_TO_SP, type SpStatus } from '../../wire/syncpostly/assumptions.js';
import { ownMedia } from '../platform-rules.js';
import type { Call } from '../routes.js';
import type { PostJson } from '../workspace.js';

type Item = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const itemsOf = (v: unknown): Item[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** A status as SyncPostly names it: a scheduled post whose time has come and is not published yet is `processing`. */
export function spStatusOf(post: Pick<PostJson, 'status' | 'scheduledAt'>, now: number): SpStatus {
  if (post.status === 'scheduled' && post.scheduledAt !== null && Date.parse(post.scheduledAt) <= now) return 'processing';
  return STATUS_TO_SP[post.status]!;
}

/** Media items as ids (uploads of this workspace) and URLs (anything else), ids first, with their alt texts in that order. */
function refsOf(call: Call, items: readonly Item[]): { ids: string[]; urls: string[]; alts: (string | null)[] } {
  const ids: { ref: string; alt: string | null }[] = [];
  const urls: { ref: string; alt: string | null }[] = [];
  for (const item of items) {
    const url = typeof item.url === 'string' ? item.url : '';
    const own = ownMedia(call.ws, url);
    const alt = typeof item.alt === 'string' ? item.alt : null;
    if (own) ids.push({ ref: call.ws.mediaId(own.index), alt });
    else urls.push({ ref: url, alt });
  }
  return { ids: ids.map((r) => r.ref), urls: urls.map((r) => r.ref), alts: [...ids, ...urls].map((r) => r.alt) };
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);
const stringsOf = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? v : undefined);

export interface SpPostDto {
  id: string;
  caption: string;
  social_accounts: string[];
  scheduled_at: string | null;
  is_draft: boolean;
  status: SpStatus;
  media: string[];
  media_urls?: string[];
  platform_configurations: Record<string, Record<string, unknown>> | null;
  account_configurations: Record<string, unknown> | null;
  processing_enabled: boolean;
  created_at: string;
  updated_at: string;
}

export function postDto(call: Call, index: number): SpPostDto {
  const post = call.ws.postJson(index);
  const extras = call.ws.livePost(index)?.extras ?? {};
  const payloads = Object.entries(post.payloads).filter((e): e is [string, Item] => isObject(e[1]));
  const refsList = payloads.map(([, p]) => refsOf(call, itemsOf(p.media)));
  // The caption and media a SyncPostly client sent, while a platform still uses them; else the first platform's.
  const sent = isObject(extras.base) ? extras.base : {};
  const texts = payloads.map(([, p]) => p.text);
  const caption = typeof sent.caption === 'string' && texts.includes(sent.caption) ? sent.caption : typeof texts[0] === 'string' ? texts[0] : '';
  const sentIds = stringsOf(sent.media);
  const sentUrls = stringsOf(sent.media_urls);
  const sentMedia = sentIds && sentUrls && refsList.some((r) => sameList(r.ids, sentIds) && sameList(r.urls, sentUrls)) ? { ids: sentIds, urls: sentUrls } : undefined;
  const base = sentMedia ?? refsList[0] ?? { ids: [], urls: [] };
  const configs: Record<string, Record<string, unknown>> = {};
  payloads.forEach(([platform, payload], i) => {
    const cfg: Record<string, unknown> = {};
    const refs = refsList[i]!;
    if (payload.text !== caption) cfg.caption = payload.text;
    if (!(sameList(refs.ids, base.ids) && sameList(refs.urls, base.urls))) {
      cfg.media = refs.ids;
      if (refs.urls.length) cfg.media_urls = refs.urls;
    }
    if (refs.alts.some((a) => a !== null)) cfg.alt_text = refs.alts;
    if (Array.isArray(payload.thread)) {
      cfg.thread = payload.thread.filter(isObject).map((part) => {
        const media = refsOf(call, itemsOf(part.media));
        const all = [...media.ids, ...media.urls];
        return { caption: part.text, ...(all.length ? { media: all } : {}) };
      });
    }
    if (payload.firstComment !== undefined) cfg.first_comment = payload.firstComment;
    if (payload.options !== undefined) cfg.options = payload.options;
    if (Object.keys(cfg).length) configs[platform] = cfg;
  });
  const accounts = payloads.flatMap(([, p]) => stringsOf(p.accounts) ?? []);
  // In the order sent, while they are still the post's accounts (the payloads group them by platform).
  const sentAccounts = stringsOf(sent.social_accounts);
  const social = sentAccounts && sameList([...sentAccounts].sort(), [...accounts].sort()) ? sentAccounts : accounts;
  return {
    id: post.id,
    caption,
    social_accounts: social,
    scheduled_at: post.status === 'draft' ? null : post.scheduledAt,
    is_draft: post.status === 'draft',
    status: spStatusOf(post, call.now),
    media: base.ids,
    ...(base.urls.length ? { media_urls: base.urls } : {}),
    platform_configurations: Object.keys(configs).length ? configs : null,
    account_configurations: isObject(extras.account_configurations) ? extras.account_configurations : null,
    processing_enabled: extras.processing_enabled !== false,
    created_at: post.createdAt,
    updated_at: post.updatedAt,
  };
}

/** The post as a create body again: what a PATCH is laid over. */
export function asCreateBody(dto: SpPostDto): Record<string, unknown> {
  return {
    caption: dto.caption,
    social_accounts: dto.social_accounts,
    media: dto.media,
    ...(dto.media_urls ? { media_urls: dto.media_urls } : {}),
    platform_configurations: dto.platform_configurations,
    account_configurations: dto.account_configurations,
    processing_enabled: dto.processing_enabled,
  };
}
