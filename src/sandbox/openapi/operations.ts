// Every operation of the contract, keyed by method and path template, as the OpenAPI document
// describes it. The document lists those the router serves (routes.ts), so an operation the
// sandbox does not have yet stays out; a route without an entry here fails the OpenAPI test.
import type { ContractSchemaName } from '../../wire/contract.js';

export interface Operation {
  summary: string;
  description?: string;
  /** Query parameters besides offset/limit (array ones repeat). */
  query?: { name: string; description: string; array?: boolean; schema?: ContractSchemaName }[];
  paged?: boolean;
  body?: ContractSchemaName | 'bytes';
  /** Status and body of the success answer (null: no body). */
  ok: { status: number; schema: ContractSchemaName | null; description: string };
  /** Error statuses this operation answers besides those of every request (401, 403, 429, 500). */
  errors: number[];
  write?: boolean;
  /** Says so when the service's document leaves this operation (or its shape) out. */
  gap?: string;
}

export const OPERATIONS: Record<string, Operation> = {
  'POST /v1/posts': { summary: 'Create a draft', body: 'CreatePostBody', ok: { status: 201, schema: 'Post', description: 'The draft' }, errors: [400, 409, 413, 422], write: true, gap: 'The service\'s document shows neither the body nor the response of this endpoint; the contract fills both.' },
  'GET /v1/posts': { summary: 'List posts, newest first', paged: true, query: [{ name: 'status', description: 'Only posts with these statuses (repeat the key, or `status[]=`, or comma-separated).', array: true, schema: 'PostStatus' }], ok: { status: 200, schema: 'PostList', description: 'A page of posts' }, errors: [400], gap: 'The filter\'s name, paging and the response shape are the contract\'s.' },
  'GET /v1/posts/{id}': { summary: 'One post', ok: { status: 200, schema: 'Post', description: 'The post' }, errors: [404], gap: 'The service\'s document shows no single-post endpoint; the contract adds it (6.1).' },
  'PATCH /v1/posts/{id}': { summary: 'Change a draft or scheduled post', body: 'UpdatePostBody', ok: { status: 200, schema: 'Post', description: 'The post as changed' }, errors: [400, 404, 409, 413, 422], write: true, gap: 'Not in the service\'s document; the contract adds it (6.1). A published or failed post: 409 POST_NOT_EDITABLE.' },
  'DELETE /v1/posts/{id}': { summary: 'Delete a draft or scheduled post', ok: { status: 204, schema: null, description: 'Deleted' }, errors: [404, 409], write: true, gap: 'Not in the service\'s document; the contract adds it (6.1).' },
  'POST /v1/schedule': { summary: 'Schedule a draft, or create and schedule at once', body: 'ScheduleBody', ok: { status: 201, schema: 'Post', description: 'The post, status scheduled' }, errors: [400, 404, 409, 413, 422], write: true, gap: 'The body, the timestamp format (RFC 3339 with an offset; a time in the past is refused) and the response are the contract\'s.' },
  'GET /api/v1/post-results': { summary: 'List post results, newest first by event time', paged: true, query: [{ name: 'post_id', description: 'Only results of these posts.', array: true }, { name: 'platform', description: 'Only results for these platforms.', array: true, schema: 'Platform' }, { name: 'social_account_id', description: 'Only results of these accounts (contract 7.2; a service may ignore it).', array: true }], ok: { status: 200, schema: 'PostResultList', description: 'A page of results' }, errors: [400], gap: 'How array parameters are encoded is the contract\'s: repeated keys, `key[]=` or comma-separated.' },
  'GET /api/v1/post-results/{id}': { summary: 'One post result', ok: { status: 200, schema: 'PostResult', description: 'The result' }, errors: [404] },
  'POST /v1/media': { summary: 'Declare an upload', body: 'CreateMediaBody', ok: { status: 201, schema: 'Media', description: 'Where to PUT the bytes, and the URL payloads reference' }, errors: [400, 409, 413, 422], write: true, gap: 'Media uploads are the contract\'s (section 2).' },
  'GET /v1/media/{id}': { summary: 'One upload', ok: { status: 200, schema: 'Media', description: 'The upload' }, errors: [404], gap: 'The contract\'s (7.3): a client can reuse an upload.' },
  'PUT /v1/media/{id}/upload': { summary: 'Upload the bytes of a declared media', body: 'bytes', ok: { status: 200, schema: 'Media', description: 'The upload, status ready' }, errors: [404, 408, 413, 422], gap: 'The contract\'s (section 2): exactly sizeBytes bytes.' },
  'GET /v1/social-accounts': { summary: 'List connected accounts', paged: true, query: [{ name: 'platform', description: 'Only accounts of these platforms.', array: true, schema: 'Platform' }, { name: 'status', description: 'Only accounts with these statuses.', array: true, schema: 'AccountStatus' }], ok: { status: 200, schema: 'AccountList', description: 'A page of accounts' }, errors: [400], gap: 'The contract\'s (7.2).' },
  'GET /v1/social-accounts/{id}': { summary: 'One account', ok: { status: 200, schema: 'Account', description: 'The account' }, errors: [404], gap: 'The contract\'s (7.2).' },
};
