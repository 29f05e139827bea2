// What shell completion offers at Tab without a request: the post ids `posts list` and `posts
// create/schedule` printed, and the account handles the last accounts lookup saw, in small files
// in the cache folder (0600) read by `completion --list-posts` / `--list-accounts`. One file per
// profile and base URL (a hash of both in its name, never a key): a run against another server or
// profile must not replace, or offer, this one's handles and ids. An old or missing file completes
// nothing. Failures to write are ignored (completion is a convenience, never a reason for a
// command to fail). Synchronous calls: a file this small takes less time than node:fs/promises
// (and the readline it loads) takes to load on a command that reads nothing else.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from '../config/paths.js';
import { DIR_MODE, FILE_MODE } from '../config/file-modes.js';
import { resolveProfile } from '../config/resolve.js';
import type { Context } from './context.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Ids older than this are not offered: the posts may have changed since. */
export const POST_IDS_TTL_MS = 10 * 60_000;
/** Accounts change rarely (connected or removed in the service's settings): a day. */
export const ACCOUNTS_TTL_MS = 24 * 3_600_000;
/** Newest first, at most this many. */
const KEEP = 200;
/** Profile and server pairs remembered per list (the least recently written go first). */
const KEEP_SCOPES = 16;

interface RecentList {
  name: string;
  ttlMs: number;
  /** Values worth offering (anything else a file holds is dropped). */
  valid: (value: string) => boolean;
}

const POSTS: RecentList = { name: 'recent-post-ids', ttlMs: POST_IDS_TTL_MS, valid: (id) => /^[\w-]{1,100}$/.test(id) };
// Handles as `--account` takes them: `@handle` and `platform:@handle` (no spaces or quotes).
const ACCOUNTS: RecentList = { name: 'recent-accounts', ttlMs: ACCOUNTS_TTL_MS, valid: (v) => /^[\w.:@-]{1,120}$/.test(v) };

/** Whose list a file is: the profile a run resolved and the base URL it spoke to. */
export interface CacheScope {
  profile: string;
  baseUrl: string;
}

const scopeHash = (scope: CacheScope) => createHash('sha256').update(`${scope.profile}\n${scope.baseUrl}`).digest('hex').slice(0, 16);
const fileName = (list: RecentList, scope: CacheScope) => `${list.name}-${scopeHash(scope)}.json`;
const fileOf = (env: Env, list: RecentList, scope: CacheScope) => join(cacheRoot(env).dir, fileName(list, scope));

interface Cached {
  at: number;
  ids: string[];
}

function read(env: Env, list: RecentList, scope: CacheScope): Cached | undefined {
  try {
    const parsed = JSON.parse(readFileSync(fileOf(env, list, scope), 'utf8')) as Partial<Cached>;
    return typeof parsed.at === 'number' && Array.isArray(parsed.ids) ? { at: parsed.at, ids: parsed.ids.filter((i): i is string => typeof i === 'string') } : undefined;
  } catch {
    return undefined;
  }
}

function recent(env: Env, now: number, list: RecentList, scope: CacheScope): string[] {
  const cached = read(env, list, scope);
  return cached && now - cached.at >= 0 && now - cached.at < list.ttlMs ? cached.ids : [];
}

/**
 * Keeps the folder small: drops this list's files that are past their age, all but the newest
 * KEEP_SCOPES, and the single shared file of earlier versions (it mixed every profile's values).
 */
function prune(dir: string, now: number, list: RecentList, keep: string): void {
  const own = new RegExp(`^${list.name}-[0-9a-f]{16}\\.json$`);
  const files = readdirSync(dir)
    .filter((f) => own.test(f) && f !== keep)
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  files.forEach(({ f, at }, i) => {
    if (i >= KEEP_SCOPES - 1 || now - at >= list.ttlMs) rmSync(join(dir, f), { force: true });
  });
  rmSync(join(dir, `${list.name}.json`), { force: true });
}

function remember(env: Env, now: number, list: RecentList, scope: CacheScope, values: readonly string[], keepOld: boolean): void {
  if (values.length === 0) return;
  try {
    const kept = [...new Set([...values, ...(keepOld ? recent(env, now, list, scope) : [])])].filter(list.valid).slice(0, KEEP);
    const dir = cacheRoot(env).dir;
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    // Written aside and renamed: a Tab at the same moment never reads half a file.
    const file = fileOf(env, list, scope);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ at: now, ids: kept }), { mode: FILE_MODE });
    renameSync(tmp, file);
    prune(dir, now, list, fileName(list, scope));
  } catch {
    // No cache folder to write to: completion simply offers nothing.
  }
}

/**
 * The profile and base URL this run resolves (--profile, SOCIALPUB_PROFILE, the current profile;
 * --base-url, SOCIALPUB_BASE_URL, the profile's), without reading any key; undefined when they do
 * not resolve (then nothing is read or written).
 */
export async function cacheScope(ctx: Pick<Context, 'env' | 'globals' | 'config'>): Promise<CacheScope | undefined> {
  try {
    const { name, baseUrl } = resolveProfile({ flagProfile: ctx.globals.profile, flagBaseUrl: ctx.globals.baseUrl, env: ctx.env, store: await ctx.config() });
    return { profile: name, baseUrl };
  } catch {
    return undefined;
  }
}

type CacheCtx = Pick<Context, 'env' | 'globals' | 'config' | 'clock'>;

async function readList(ctx: CacheCtx, list: RecentList): Promise<string[]> {
  const scope = await cacheScope(ctx);
  return scope ? recent(ctx.env, ctx.clock.now(), list, scope) : [];
}

async function writeList(ctx: CacheCtx, list: RecentList, values: readonly string[], keepOld: boolean): Promise<void> {
  if (values.length === 0) return;
  const scope = await cacheScope(ctx);
  if (scope) remember(ctx.env, ctx.clock.now(), list, scope, values, keepOld);
}

/** This profile's ids remembered in the last ten minutes, newest first ([] when none). */
export const recentPostIds = (ctx: CacheCtx): Promise<string[]> => readList(ctx, POSTS);

/** Adds these ids in front of the fresh ones already remembered for this profile. */
export const rememberPostIds = (ctx: CacheCtx, ids: readonly string[]): Promise<void> => writeList(ctx, POSTS, ids, true);

/** The account handles of this profile's last lookup (within a day). */
export const recentAccounts = (ctx: CacheCtx): Promise<string[]> => readList(ctx, ACCOUNTS);

/** Replaces this profile's remembered handles with these (the workspace's accounts, as a lookup saw them). */
export const rememberAccounts = (ctx: CacheCtx, handles: readonly string[]): Promise<void> => writeList(ctx, ACCOUNTS, handles, false);
