// The endpoints in SyncPostly's dialect (contract 7.5): the same ApiClient the commands use,
// each call a translation of the domain to SyncPostly's published API and back. Every choice
// its documents leave open is in src/wire/syncpostly/assumptions.ts.
import type { Paginate, PaginatePages } from '../paginate.js';
import type { Requester } from '../request.js';
import type { ApiClient } from '../types.js';
import { createAccountCache } from './account-cache.js';
import { createSpAccounts } from './accounts.js';
import { createSpMedia } from './media.js';
import { MediaRefs } from './media-refs.js';
import { createSpPosts } from './posts.js';
import { createSpResults } from './results.js';
import { createTranslator } from './translate.js';

export function createSyncPostlyEndpoints(
  request: Requester,
  paginate: Paginate,
  paginatePages: PaginatePages,
  debug: ((line: string) => void) | undefined,
  now: () => number,
): Pick<ApiClient, 'posts' | 'results' | 'accounts' | 'media'> {
  const accounts = createAccountCache(paginate, now);
  const media = new MediaRefs();
  return {
    posts: createSpPosts({ request, paginate, paginatePages, translate: createTranslator(accounts, media), debug }),
    results: createSpResults(request, paginatePages, accounts),
    accounts: createSpAccounts(request, paginate, accounts),
    media: createSpMedia(request, media),
  };
}
