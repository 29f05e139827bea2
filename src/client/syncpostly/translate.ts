// The two directions of the post translation with this client's state filled in: the account
// list (read once) and the media this client uploaded or fetched.
import type { SpPost } from '../../wire/syncpostly/schemas.js';
import type { Post } from '../../wire/schemas.js';
import type { AccountCache } from './account-cache.js';
import type { MediaRefs } from './media-refs.js';
import { postFromDto } from './post-from-dto.js';
import { spPostContent, type SpPostContent } from './post-body.js';

export interface Translator {
  /** `media: 'unchecked'`: media references are not looked at (local files not uploaded yet). */
  content(payloads: Record<string, unknown>, title?: string | null, media?: 'unchecked'): Promise<SpPostContent>;
  posts(dtos: readonly SpPost[]): Promise<Post[]>;
  post(dto: SpPost): Promise<Post>;
}

export function createTranslator(accounts: AccountCache, media: MediaRefs): Translator {
  const posts = async (dtos: readonly SpPost[]) => {
    const all = await accounts.covering(dtos.flatMap((d) => d.social_accounts ?? []));
    const platformOf = new Map(all.map((a) => [a.id, a.platform]));
    return dtos.map((dto) => postFromDto(dto, { platformOf: (id) => platformOf.get(id), mediaUrl: (id) => media.urlOf(id) }));
  };
  return {
    async content(payloads, title, mediaCheck) {
      const given = Object.values(payloads).flatMap((p) => {
        const ids = (p as { accounts?: unknown } | null)?.accounts;
        return Array.isArray(ids) ? ids.map(String) : [];
      });
      const mediaId = mediaCheck === 'unchecked' ? (url: string) => url : (url: string) => media.idOf(url);
      return spPostContent(payloads, title, { accounts: await accounts.covering(given), mediaId });
    },
    posts,
    post: async (dto) => (await posts([dto]))[0]!,
  };
}
