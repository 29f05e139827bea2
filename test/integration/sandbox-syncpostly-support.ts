// Shared by the tests of the sandbox's SyncPostly dialect: a client bound to one workspace that
// speaks it over plain fetch, and the workspace's accounts as both dialects show them.
import type { Sandbox } from '../../src/sandbox/index.js';
import type { AccountJson } from '../../src/sandbox/accounts.js';
import type { SpPostDto } from '../../src/sandbox/syncpostly/post-dto.js';
import { spAccountListSchema, spPostSchema } from '../../src/wire/syncpostly/schemas.js';
import { allRows, call, type Answer } from './sandbox-support.js';

export function spClient(sb: Sandbox, workspace: string) {
  const key = sb.key(workspace);
  const send = <T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer<T>> =>
    call<T>(sb, method, path, { key, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  return {
    key,
    get: <T = any>(path: string) => send<T>('GET', path),
    post: <T = any>(path: string, body: unknown, headers?: Record<string, string>) => send<T>('POST', path, body, headers),
    patch: <T = any>(path: string, body: unknown) => send<T>('PATCH', path, body),
    del: <T = any>(path: string) => send<T>('DELETE', path),
    /** A create that must succeed: the PostDto, checked against the documented schema. */
    async create(body: Record<string, unknown>) {
      const r = await send('POST', '/api/v1/posts', body);
      if (r.status !== 200) throw new Error(`create: ${r.status} ${r.text}`);
      return spPostSchema.parse(r.body) as SpPostDto;
    },
  };
}

export type { SpPostDto as SpPost } from '../../src/sandbox/syncpostly/post-dto.js';

/** The workspace's accounts in our dialect (with default and status), to pick ones that publish. */
export async function accountsOf(sb: Sandbox, workspace: string) {
  const ours = (await allRows<AccountJson>(sb, sb.key(workspace), '/v1/social-accounts')).rows;
  const theirs = spAccountListSchema.parse((await call(sb, 'GET', '/api/v1/social-accounts?limit=100', { key: sb.key(workspace) })).body).data;
  const usable = (platform: string) => ours.find((a) => a.platform === platform && a.isDefault && a.status === 'connected')!.id;
  return { ours, theirs, usable };
}
