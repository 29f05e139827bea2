// SyncPostly's published API, served as a second dialect on the same port, from the same store
// (src/wire/syncpostly/assumptions.ts lists every choice). /api/v1/post-results is not here: both
// dialects share the one route in ../routes.ts. These routes are not this contract's, so the
// OpenAPI document leaves them out (its test says so).
import { SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import { uploadKeep, uploadLimit } from '../handlers/media.js';
import type { Route } from '../routes.js';
import { spGetAccount, spListAccounts } from './accounts.js';
import { spCreateUploadUrl, spDeleteMedia, spGetMedia, spListMedia, spUpload } from './media.js';
import { spCreatePost, spDeletePost, spGetPost, spListPosts, spUpdatePost } from './posts.js';

const ID = '([^/]+)';
const exact = (path: string) => new RegExp(`^${path}$`);
const one = (path: string) => new RegExp(`^${path}/${ID}$`);

export const SP_ROUTES: Route[] = [
  { method: 'GET', pattern: exact(SP_PATHS.posts), handle: spListPosts },
  { method: 'POST', pattern: exact(SP_PATHS.posts), body: 'json', handle: spCreatePost },
  { method: 'GET', pattern: one(SP_PATHS.posts), handle: spGetPost },
  { method: 'PATCH', pattern: one(SP_PATHS.posts), body: 'json', handle: spUpdatePost },
  { method: 'DELETE', pattern: one(SP_PATHS.posts), handle: spDeletePost },
  { method: 'GET', pattern: exact(SP_PATHS.socialAccounts), handle: spListAccounts },
  { method: 'GET', pattern: one(SP_PATHS.socialAccounts), handle: spGetAccount },
  { method: 'POST', pattern: exact(SP_PATHS.mediaCreateUploadUrl), body: 'json', handle: spCreateUploadUrl },
  { method: 'PUT', pattern: one(SP_PATHS.mediaUpload), body: 'raw', limit: uploadLimit, keep: uploadKeep, digest: true, handle: spUpload },
  { method: 'GET', pattern: exact(SP_PATHS.media), handle: spListMedia },
  { method: 'GET', pattern: one(SP_PATHS.media), handle: spGetMedia },
  { method: 'DELETE', pattern: one(SP_PATHS.media), handle: spDeleteMedia },
];
