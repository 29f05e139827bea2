// Post ids for shell completion: `posts list` and `posts create/schedule` remember the ids they
// printed in a small file in the cache folder (0600), and `completion --list-posts` reads it at
// Tab. Never a request at Tab: an old or missing file completes nothing. Failures to write are
// ignored (completion is a convenience, never a reason for a command to fail).
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheRoot } from '../config/paths.js';
import { DIR_MODE, FILE_MODE } from '../config/file-modes.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Ids older than this are not offered: the posts may have changed since. */
export const POST_IDS_TTL_MS = 10 * 60_000;
/** Newest first, at most this many. */
const KEEP = 200;

const fileOf = (env: Env) => join(cacheRoot(env).dir, 'recent-post-ids.json');

interface Cached {
  at: number;
  ids: string[];
}

async function read(env: Env): Promise<Cached | undefined> {
  try {
    const parsed = JSON.parse(await readFile(fileOf(env), 'utf8')) as Partial<Cached>;
    return typeof parsed.at === 'number' && Array.isArray(parsed.ids) ? { at: parsed.at, ids: parsed.ids.filter((i): i is string => typeof i === 'string') } : undefined;
  } catch {
    return undefined;
  }
}

/** The ids remembered in the last ten minutes, newest first ([] when none). */
export async function recentPostIds(env: Env, now: number): Promise<string[]> {
  const cached = await read(env);
  return cached && now - cached.at >= 0 && now - cached.at < POST_IDS_TTL_MS ? cached.ids : [];
}

/** Adds these ids in front of the fresh ones already remembered. */
export async function rememberPostIds(env: Env, now: number, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  try {
    const kept = [...new Set([...ids, ...(await recentPostIds(env, now))])].filter((id) => /^[\w-]{1,100}$/.test(id)).slice(0, KEEP);
    const dir = cacheRoot(env).dir;
    await mkdir(dir, { recursive: true, mode: DIR_MODE });
    // Written aside and renamed: a Tab at the same moment never reads half a file.
    const tmp = `${fileOf(env)}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify({ at: now, ids: kept }), { mode: FILE_MODE });
    await rename(tmp, fileOf(env));
  } catch {
    // No cache folder to write to: completion simply offers no ids.
  }
}
