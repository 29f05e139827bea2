// A SyncPostly body made into our payloads (one per platform of its accounts, contract 7.2/7.3),
// so the post is stored as any other and judged by the same rules (validation.ts, the accounts'
// checks): the caption and media are the base, `platform_configurations[platform]` overrides
// them and adds a thread, first comment, alt text and settings (assumptions.platformConfigurations).
// Each of our issue paths is mapped back to the SyncPostly field it came from.
import { isPlatform, mediaKind, mimeTypeFor, PLATFORMS, type Platform } from '../../wire/platforms.js';
import { SP_MEDIA_TYPES } from '../../wire/syncpostly/assumptions.js';
import type { SpCreatePost } from '../../wire/syncpostly/schemas.js';
import { publicMediaUrl } from '../handlers/media.js';
import type { Call } from '../routes.js';
import { checkCreatePost, type Issue, type Payloads } from '../validation.js';
import { parsePlatformConfig, type SpPlatformConfig } from './body.js';
import type { SpIssue } from './dialect.js';

type Path = (string | number)[];

/** Where each part of a platform's payload came from. */
interface Origins {
  text: Path;
  /** The platform's media list as a whole (the base `media`, or its override). */
  media: Path;
  /** Each media item. */
  items: Path[];
  config: Path;
  /** Index in social_accounts of each of the payload's accounts. */
  accounts: number[];
}

export interface Translated {
  payloads: Payloads;
  origins: Map<string, Origins>;
}

const issue = (path: Path, message: string): SpIssue => ({ path, message, code: 'custom' });

/** A URL as a media item: one whose name says a type SyncPostly does not document is refused, as an upload of it would be. */
function urlItem(url: string, path: Path, issues: SpIssue[]): Record<string, unknown> {
  const mime = mimeTypeFor(url);
  if (mime && !(SP_MEDIA_TYPES as readonly string[]).includes(mime)) issues.push(issue(path, `${mime} is not a media type SyncPostly takes; use ${SP_MEDIA_TYPES.join(', ')}`));
  return { url };
}

/** A media id of this workspace → its item; a URL (thread parts only, or media_urls) → as is. */
function mediaItem(call: Call, ref: string, path: Path, issues: SpIssue[], urlsToo: boolean): Record<string, unknown> | undefined {
  const m = call.ws.findMedia(ref);
  if (m) return { url: publicMediaUrl(call, m), type: mediaKind(m.mimeType) ?? 'image' };
  if (urlsToo && /^https?:\/\//i.test(ref)) return urlItem(ref, path, issues);
  issues.push(issue(path, `no media ${JSON.stringify(ref)} in this workspace (POST /api/v1/media/create-upload-url, then PUT the bytes, gives a media id)`));
  return undefined;
}

export function toPayloads(call: Call, body: SpCreatePost): { ok: true; value: Translated } | { ok: false; issues: SpIssue[] } {
  const issues: SpIssue[] = [];
  // Accounts, grouped by platform in the order they are first named.
  const groups = new Map<Platform, { ids: string[]; at: number[] }>();
  const seen = new Set<string>();
  body.social_accounts.forEach((id, i) => {
    const a = call.ws.socialAccounts.find(id);
    if (!a) return void issues.push(issue(['social_accounts', i], `no social account ${JSON.stringify(id)} in this workspace (GET /api/v1/social-accounts lists them)`));
    if (seen.has(id)) return void issues.push(issue(['social_accounts', i], `${JSON.stringify(id)} is named twice`));
    seen.add(id);
    const g = groups.get(a.platform) ?? { ids: [], at: [] };
    g.ids.push(id);
    g.at.push(i);
    groups.set(a.platform, g);
  });
  const configs = new Map<string, SpPlatformConfig>();
  for (const [key, value] of Object.entries(body.platform_configurations ?? {})) {
    const at: Path = ['platform_configurations', key];
    if (!isPlatform(key)) issues.push(issue(at, `unknown platform ${JSON.stringify(key)}; use one of ${PLATFORMS.join(', ')}`));
    else if (!groups.has(key)) issues.push(issue(at, `no ${key} account is in social_accounts: add one, or leave this platform out`));
    else {
      const cfg = parsePlatformConfig(value, key, issues);
      if (cfg) configs.set(key, cfg);
    }
  }
  if (issues.length) return { ok: false, issues };

  const payloads: Payloads = {};
  const origins = new Map<string, Origins>();
  for (const [platform, group] of groups) {
    const cfg = configs.get(platform) ?? {};
    const config: Path = ['platform_configurations', platform];
    const own = cfg.media !== undefined || cfg.media_urls !== undefined;
    const ids = own ? (cfg.media ?? []) : (body.media ?? []);
    const urls = own ? (cfg.media_urls ?? []) : (body.media_urls ?? []);
    const idPath = (i: number): Path => (own ? [...config, 'media', i] : ['media', i]);
    const urlPath = (i: number): Path => (own ? [...config, 'media_urls', i] : ['media_urls', i]);
    const items: Path[] = [...ids.map((_, i) => idPath(i)), ...urls.map((_, i) => urlPath(i))];
    const media = [
      ...ids.map((id, i) => mediaItem(call, id, idPath(i), issues, false)),
      ...urls.map((url, i) => urlItem(url, urlPath(i), issues)),
    ];
    if (cfg.alt_text) {
      if (cfg.alt_text.length > media.length) issues.push(issue([...config, 'alt_text'], `has ${cfg.alt_text.length} entries for ${media.length} media items; give one per item (null for none)`));
      cfg.alt_text.forEach((alt, i) => {
        if (alt !== null && media[i]) media[i] = { ...media[i], alt };
      });
    }
    const payload: Record<string, unknown> = { text: cfg.caption ?? body.caption, accounts: group.ids };
    if (media.length) payload.media = media;
    if (cfg.thread) {
      payload.thread = cfg.thread.map((part, i) => ({
        text: part.caption,
        ...(part.media?.length ? { media: part.media.map((ref, j) => mediaItem(call, ref, [...config, 'thread', i, 'media', j], issues, true)) } : {}),
      }));
    }
    if (cfg.first_comment !== undefined) payload.firstComment = cfg.first_comment;
    if (cfg.options !== undefined) payload.options = cfg.options;
    payloads[platform] = payload;
    origins.set(platform, { text: cfg.caption !== undefined ? [...config, 'caption'] : ['caption'], media: own ? config : ['media'], items, config, accounts: group.at });
  }
  // The base media go to every platform: a bad one is named once.
  if (issues.length) return { ok: false, issues: [...new Map(issues.map((i) => [JSON.stringify([i.path, i.message]), i])).values()] };

  const checked = checkCreatePost({ payloads });
  if (!checked.ok) return { ok: false, issues: mapIssues(checked.issues, origins) };
  // The accounts are this workspace's (checked above): what is left is a platform's own rule.
  const accountIssues = call.ws.socialAccounts.assign(payloads);
  if (accountIssues.length) return { ok: false, issues: mapIssues(accountIssues, origins) };
  return { ok: true, value: { payloads, origins } };
}

/** Our issue (`payloads.bluesky.media.0.url`) on the SyncPostly field it came from. */
export function mapIssues(ours: readonly Issue[], origins: ReadonlyMap<string, Origins>): SpIssue[] {
  return ours.map((i) => {
    const [, platform = '', field, ...rest] = i.path.split('.');
    const o = origins.get(platform);
    if (!o) return issue(['caption'], i.message);
    const n = (s: string | undefined) => Number(s);
    const named = (path: Path) => issue(path, i.message.toLowerCase().includes(platform) ? i.message : `${platform}: ${i.message}`);
    switch (field) {
      case 'text':
        return named(o.text);
      case 'media':
        if (rest.length === 0) return named(o.media);
        if (rest[1] === 'alt') return named([...o.config, 'alt_text', n(rest[0])]);
        return named(o.items[n(rest[0])] ?? o.media);
      case 'thread':
        if (rest.length === 0) return named([...o.config, 'thread']);
        if (rest[1] === 'text') return named([...o.config, 'thread', n(rest[0]), 'caption']);
        if (rest[1] === 'media' && rest[2] !== undefined) return named([...o.config, 'thread', n(rest[0]), 'media', n(rest[2])]);
        return named([...o.config, 'thread', n(rest[0])]);
      case 'firstComment':
        return named([...o.config, 'first_comment']);
      case 'options':
        return named([...o.config, 'options', ...rest]);
      case 'accounts':
        return named(['social_accounts', o.accounts[n(rest[0])] ?? 0]);
      default:
        return named(o.config);
    }
  });
}
