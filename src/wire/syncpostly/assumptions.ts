// Every choice we made where SyncPostly's published documentation is silent or cut short
// (../shared/research/syncpostly-api.md), in one place, each with its reason. The client's
// translation (src/client/syncpostly/) and the sandbox's second dialect (src/sandbox/syncpostly/)
// both follow this file; where the live service turns out to differ, this is the file to change.
//
// What is documented is followed exactly and is not repeated here: the paths under /api/v1, the
// body fields, the statuses, 200 on create, `{ data, meta: { offset, limit, total } }` lists, limit
// 10 by default and 100 at most, `{ error, issues? }` errors with 400/401/404/422/429.

export const SP_PATHS = {
  posts: '/api/v1/posts',
  postResults: '/api/v1/post-results',
  socialAccounts: '/api/v1/social-accounts',
  media: '/api/v1/media',
  /**
   * ASSUMED: the create-upload-URL path is not shown. Post Bridge, whose field names SyncPostly
   * shares, uses POST /v1/media/create-upload-url; under SyncPostly's /api/v1 prefix.
   */
  mediaCreateUploadUrl: '/api/v1/media/create-upload-url',
  /** Documented in a comment of CreateUploadUrlResponse: `// PUT /api/v1/media/upload/{id}`. */
  mediaUpload: '/api/v1/media/upload',
} as const;

export const SP_STATUSES = ['draft', 'processing', 'scheduled', 'posted', 'failed'] as const;
export type SpStatus = (typeof SP_STATUSES)[number];
export const isSpStatus = (status: string): status is SpStatus => (SP_STATUSES as readonly string[]).includes(status);

/**
 * Our statuses and theirs: `posted` is our `published`; `processing` (publishing under way) has no
 * equivalent in our contract and is shown as `processing`, never folded into another status.
 */
export const STATUS_TO_SP: Record<string, SpStatus> = { draft: 'draft', scheduled: 'scheduled', published: 'posted', failed: 'failed', processing: 'processing' };
export const STATUS_FROM_SP: Record<SpStatus, string> = { draft: 'draft', processing: 'processing', scheduled: 'scheduled', posted: 'published', failed: 'failed' };

/** The MIME types MediaDto documents; nothing else is sent (a GIF or WebP is refused before any request). */
export const SP_MEDIA_TYPES = ['image/png', 'image/jpeg', 'video/mp4', 'video/quicktime'] as const;

export const SP_ASSUMPTIONS = {
  arrayQuery:
    'Array query parameters (status, platform, post_id) are sent as repeated keys (`?status=draft&status=scheduled`): the docs say "array" and show one bare key; Post for Me, a similar service, takes repeated keys. The sandbox also accepts `key[]=` and comma-separated values.',
  singleObjects:
    'GET /api/v1/posts/{id}, PATCH and POST answer the bare PostDto (not wrapped in `data`): the docs say the single GET "returns a record". The client also accepts `{ data: PostDto }`.',
  postOrder: 'GET /api/v1/posts lists newest first (by creation), like post results: the docs do not say.',
  platformConfigurations:
    'platform_configurations is keyed by our platform ids (the research found SyncPostly uses the same nine ids); each value is `{ caption?, media?, media_urls?, alt_text?, thread?, first_comment?, options? }`. `caption` and `media` (media ids) follow Post Bridge; `media_urls` mirrors the top-level field; `alt_text` (strings parallel to that platform\'s media, null for none), `thread` (`[{ caption, media? }]`, the parts after the first), `first_comment` (string) and `options` (the platform\'s settings as in contract 7.3) are ours: the docs call the object "free-form JSON". The sandbox refuses (422) any other key and a platform none of social_accounts is on; a thread part\'s `media` may also hold URLs.',
  baseCaption:
    'The base `caption` and `media` are those of the first platform in the payload order; another platform gets `platform_configurations[platform].caption`/`.media` only where it differs. Reading back, a platform\'s text is its override, else the caption. The sandbox reads back the caption and media a post was sent with while a platform still uses them, else (a post of our dialect) the first platform\'s.',
  accounts:
    'social_accounts holds the account ids of every platform of the post; a platform of the post is known by the platform of its accounts (GET /api/v1/social-accounts). An account has no status, default flag or token expiry in SyncPostly: a platform with one account uses it; with several, the user must name one (--account).',
  accountHealth:
    'With no account status, an account\'s health is told by its newest result: failed with TOKEN_EXPIRED it is taken as expired, with ACCOUNT_DISCONNECTED as disconnected, until a newer result (a success, or a failure for another cause) says it publishes again. The client reads the newest page of results for it; `results retry` then leaves such targets out, a write naming such an account (--account, a bulk file\'s account column, a write tool\'s accounts) warns before it is sent, and `posts check --account` fails it, as all three do for an account whose status says so in socialpub\'s API. `accounts list`, `accounts view` and list_accounts show the status so told, from the results they read for the last outcomes. An account whose newest result says otherwise is taken as connected; one with no result in that page, as not known.',
  drafts:
    'A draft is created with `is_draft: true, scheduled_at: null`; a scheduled post with `is_draft: false, scheduled_at: <time>`. The client never sends `is_draft: false` with a null `scheduled_at` (that publishes at once, which no command of ours asks for); unscheduling is `is_draft: true, scheduled_at: null`. In the sandbox a draft has no time (as in our contract): a `scheduled_at` sent with `is_draft: true`, or sent for a draft without `is_draft: false`, is refused (422 on scheduled_at) rather than dropped; `is_draft: true` alone unschedules.',
  publishNow:
    'Create with `scheduled_at` null or omitted and `is_draft` false, null or omitted publishes at once (documented). The sandbox schedules such a post at that instant and its publisher sends it at once; until it has, the post reads `processing`, as does any scheduled post whose time has come (the only moment the sandbox has for that status). Its scheduled_at then reads as that instant.',
  editable:
    'PATCH and DELETE change a draft or a scheduled post only; a processing, posted or failed one answers 400 (no 409 is documented; Post for Me answers 400 likewise). A PATCH with new social_accounts and no platform_configurations drops the overrides of platforms no longer posted to.',
  deleteAnswer: 'DELETE /api/v1/posts/{id} answers 200 `{ success: true }` (as the documented media delete does), and removes the uploads the post names (documented: "Remove the post and attached media").',
  accountConfigurations:
    'account_configurations is kept verbatim and echoed; the sandbox applies none of it (each account publishes its platform\'s payload). processing_enabled is echoed (true unless false was sent); the sandbox processes no video either way.',
  mediaUrls:
    'The sandbox keeps media_urls as URLs (not as media records): PostDto.media holds uploads only, and a PostDto with such URLs also carries `media_urls` (the documented example is cut short). On PATCH, `media` or `media_urls` replaces both. A URL whose name says a type other than the four documented (a .gif, a .webp) is refused (422), as its media record would be.',
  validationStatus:
    'A required field missing from a create (caption, social_accounts) is 400 with its Zod issues (the docs: "400 for a bad request (missing fields, bad query values)"); every other schema or rule failure of a post or an upload is 422 with issues.',
  mediaRefs:
    'PostDto.media holds media ids only. Read back, a media item is `{ id, url }` where url is the media\'s URL when this client uploaded or fetched it, else `syncpostly-media:<id>`; such a reference is sent back as the id.',
  mediaUpload:
    'POST /api/v1/media/create-upload-url takes `{ mime_type, size_bytes, name }` (Post Bridge\'s body) and answers `{ media_id, upload_url, name }` (documented); the PUT of the raw bytes carries the same Bearer key (documented) and answers `{ success, media_id, url }` (documented). A create-upload-url whose answer was lost is asked again (at worst an upload record is left unused); a PUT is the same bytes again.',
  mediaGet: 'GET /api/v1/media/{id} answers one MediaDto (the list route is documented, the single one is assumed as for posts).',
  mediaReuse:
    'MediaDto has no digest: an upload this client made (its id recorded against the bytes\' SHA-256) is reused for the same bytes only while GET /api/v1/media/{id} says it is `uploaded`, not deleted, of the same size, and attached to no post (`post_id` null): deleting a post deletes its media, so bytes shared with another post could vanish with it. Otherwise the bytes are uploaded again.',
  mediaWebUrls: 'A payload\'s media given as web URLs go as `media_urls` (documented); a platform\'s list holding both uploads and URLs is refused, since the two lists lose their order. A media reference that is neither (an unknown scheme) is refused before anything is sent.',
  resultRows:
    'Result rows carry no `platform` and no event time: the client takes the platform from the row\'s account and cannot apply `--since` exactly. The sandbox serves one /api/v1/post-results for both dialects (the path is the same), so its rows also carry our `platform` and `created_at`, and its errors keep our error body; the client in this dialect ignores the extra fields and reads either error body, as it must with the live service.',
  resultFilter: 'No `social_account_id` filter is documented: the client filters rows by account itself.',
  idempotency:
    'No idempotency header is documented: the client sends none, never resends a create blindly, and after a lost answer looks for the post it sent (the newest posts, by caption, accounts and scheduled time) before it decides to send again. A lost answer is a timeout, a connection dropped after sending, a 5xx or a 2xx cut short; a connection refused and a 429 are retried as usual (nothing was done). The search reads the newest 100 posts (one page); where a PostDto carries `created_at` (the documented example is cut short before it) a post created more than 5 minutes before the attempt started is not it (the two clocks may differ), and a post already taken as the answer to another create of the same run is not taken twice. When the search itself fails, the create is not sent again. A DELETE whose answer was lost asks for the post first: gone, the delete is done (not sent again onto a 404). The sandbox ignores an Idempotency-Key in this dialect, as the service may.',
  errors: 'Errors are `{ error: string, issues?: [{ path: (string|number)[], message, code }] }`; a 404 on a documented route is "not found or not in this workspace". The sandbox answers every refusal under /api/v1 (but post-results) so, 405 and 413 included; its 401 is `{"error":"Bearer Token missing or invalid"}` whatever was wrong, and a key of a workspace without the API add-on is such a key (no 403 is documented).',
  accountFilters: 'GET /api/v1/social-accounts takes `platform` and `username` (array parameters; Post Bridge\'s filters, none documented). Lists of media are newest first.',
  webhooks: 'No webhook page, events or signing were found: `listen` cannot verify SyncPostly deliveries and says so.',
  accountsSingle: 'GET /api/v1/social-accounts/{id} is assumed (only the list is named); the client falls back to the list when it answers 404 or 405, and says NOT_FOUND when the list lacks the id too.',
  rateLimit: 'Writes answer 429 with Retry-After when limited (documented; the figure is not): the sandbox applies its own write limit to both dialects together.',
} as const;
