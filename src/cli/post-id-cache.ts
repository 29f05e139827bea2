// What shell completion offers at Tab without a request: the post ids `posts list` and `posts
// create/schedule` printed, and the account handles the last accounts lookup saw, each in a small
// file in the cache folder (0600) read by `completion --list-posts` / `--list-accounts`. An old or
// missing file completes nothing. Failures to write are ignored (completion is a convenience,
// never a reason for a command to fail). Synchronous calls: a file this small takes less time than
// node:fs/promises (and the readline it loads) takes to load on a command that reads nothing else.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot } from '../config/paths.js';
import { DIR_MODE, FILE_MODE } from '../config/file-modes.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Ids older than this are not offered: the posts may have changed since. */
export const POST_IDS_TTL_MS = 10 * 60_000;
/** Accounts change rarely (connected or removed in the service's settings): a day. */
export const ACCOUNTS_TTL_MS = 24 * 3_600_000;
/** Newest first, at most this many. */
const KEEP = 200;

interface RecentList {
  file: string;
  ttlMs: number;
  /** Values worth offering (anything else a file holds is dropped). */
  valid: (value: string) => boolean;
}

const POSTS: RecentList = { file: 'recent-post-ids.json', ttlMs: POST_IDS_TTL_MS, valid: (id) => /^[\w-]{1,100}$/.test(id) };
// Handles as `--account` takes them: `@handle` and `platform:@handle` (no spaces or quotes).
const ACCOUNTS: RecentList = { file: 'recent-accounts.json', ttlMs: ACCOUNTS_TTL_MS, valid: (v) => /^[\w.:@-]{1,120}$/.test(v) };

const fileOf = (env: Env, list: RecentList) => join(cacheRoot(env).dir, list.file);

interface Cached {
  at: number;
  ids: string[];
}

function read(env: Env, list: RecentList): Cached | undefined {
  try {
    const parsed = JSON.parse(readFileSync(fileOf(env, list), 'utf8')) as Partial<Cached>;
    return typeof parsed.at === 'number' && Array.isArray(parsed.ids) ? { at: parsed.at, ids: parsed.ids.filter((i): i is string => typeof i === 'string') } : undefined;
  } catch {
    return undefined;
  }
}

function recent(env: Env, now: number, list: RecentList): string[] {
  const cached = read(env, list);
  return cached && now - cached.at >= 0 && now - cached.at < list.ttlMs ? cached.ids : [];
}

function remember(env: Env, now: number, list: RecentList, values: readonly string[], keepOld: boolean): void {
  if (values.length === 0) return;
  try {
    const kept = [...new Set([...values, ...(keepOld ? recent(env, now, list) : [])])].filter(list.valid).slice(0, KEEP);
    const dir = cacheRoot(env).dir;
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    // Written aside and renamed: a Tab at the same moment never reads half a file.
    const tmp = `${fileOf(env, list)}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ at: now, ids: kept }), { mode: FILE_MODE });
    renameSync(tmp, fileOf(env, list));
  } catch {
    // No cache folder to write to: completion simply offers nothing.
  }
}

/** The ids remembered in the last ten minutes, newest first ([] when none). */
export const recentPostIds = (env: Env, now: number): string[] => recent(env, now, POSTS);

/** Adds these ids in front of the fresh ones already remembered. */
export const rememberPostIds = (env: Env, now: number, ids: readonly string[]): void => remember(env, now, POSTS, ids, true);

/** The account handles of the last lookup (within a day). */
export const recentAccounts = (env: Env, now: number): string[] => recent(env, now, ACCOUNTS);

/** Replaces the remembered handles with these (the workspace's accounts, as a lookup saw them). */
export const rememberAccounts = (env: Env, now: number, handles: readonly string[]): void => remember(env, now, ACCOUNTS, handles, false);
