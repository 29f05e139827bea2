// SyncPostly's PostDto as the domain's post: a payload per platform of the post's accounts (their
// platforms come from the account list), each with its text (the platform's caption override,
// else the caption), media references (assumptions.mediaRefs), extras and accounts; the status in
// our words (`posted` → `published`, `processing` kept); scheduledAt; createdAt/updatedAt when sent.
import { STATUS_FROM_SP, isSpStatus } from './status.js';
import type { SpPost } from '../../wire/syncpostly/schemas.js';
import type { Post } from '../../wire/schemas.js';

export interface DtoContext {
  /** The platform of an account, when the workspace has it. */
  platformOf(accountId: string): string | undefined;
  /** The domain URL of a media id. */
  mediaUrl(id: string): string;
}

type Config = Record<string, unknown>;

export function postFromDto(dto: SpPost, ctx: DtoContext): Post {
  const accountsByPlatform = new Map<string, string[]>();
  for (const id of dto.social_accounts ?? []) {
    const platform = ctx.platformOf(id);
    if (platform === undefined) continue;
    accountsByPlatform.set(platform, [...(accountsByPlatform.get(platform) ?? []), id]);
  }
  const configs = (dto.platform_configurations ?? {});
  const payloads: Record<string, unknown> = {};
  for (const [platform, accounts] of accountsByPlatform) {
    const raw = configs[platform];
    const cfg: Config = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Config) : {};
    payloads[platform] = payloadOf(dto, cfg, accounts, ctx);
  }
  return {
    id: dto.id,
    status: isSpStatus(dto.status) ? STATUS_FROM_SP[dto.status] : dto.status,
    payloads,
    scheduledAt: dto.scheduled_at ?? null,
    ...(dto.created_at ? { createdAt: dto.created_at } : {}),
    ...(dto.updated_at ? { updatedAt: dto.updated_at } : {}),
  };
}

function payloadOf(dto: SpPost, cfg: Config, accounts: string[], ctx: DtoContext): Record<string, unknown> {
  const own = Array.isArray(cfg.media) || Array.isArray(cfg.media_urls);
  const ids = own ? strings(cfg.media) : (dto.media ?? []);
  const urls = own ? strings(cfg.media_urls) : strings((dto as { media_urls?: unknown }).media_urls);
  const alt = Array.isArray(cfg.alt_text) ? cfg.alt_text : [];
  const media = [...ids.map((id) => ({ url: ctx.mediaUrl(id), id })), ...urls.map((url) => ({ url }))].map((m, i) =>
    typeof alt[i] === 'string' ? { ...m, alt: alt[i] } : m,
  );
  const payload: Record<string, unknown> = { text: typeof cfg.caption === 'string' ? cfg.caption : (dto.caption ?? '') };
  if (media.length > 0) payload.media = media;
  if (Array.isArray(cfg.thread)) {
    payload.thread = cfg.thread.map((part: unknown) => {
      const p = (part ?? {}) as { caption?: unknown; media?: unknown };
      const partMedia = strings(p.media).map((ref) => (/^https?:\/\//i.test(ref) ? { url: ref } : { url: ctx.mediaUrl(ref), id: ref }));
      return { text: typeof p.caption === 'string' ? p.caption : '', ...(partMedia.length > 0 ? { media: partMedia } : {}) };
    });
  }
  if (typeof cfg.first_comment === 'string') payload.firstComment = cfg.first_comment;
  if (cfg.options !== null && typeof cfg.options === 'object') payload.options = cfg.options;
  payload.accounts = accounts;
  return payload;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
