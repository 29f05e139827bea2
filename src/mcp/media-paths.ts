// Which local files an assistant may upload: only those under the folders the user named with
// `socialpub mcp --media-dir` (none by default; URLs are always taken). A path is judged where it
// really leads, with `..` and symbolic links resolved, and every refusal reads the same whether
// the file exists, is text or is a folder, so an assistant cannot use the answers to find out
// which files exist outside the allowed folders.
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InvalidInputError } from '../wire/invalid-input.js';

const URL_LIKE = /^https?:\/\//i;

/** The folders as they really are (links resolved); a folder that does not exist is an error naming it. */
export async function resolveMediaDirs(dirs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of dirs) {
    let real: string;
    try {
      real = await realpath(resolve(dir));
    } catch {
      throw new InvalidInputError([{ field: '--media-dir', message: `--media-dir ${dir}: no such folder`, fix: 'name a folder that exists (repeat --media-dir for several)' }]);
    }
    if (!(await stat(real)).isDirectory()) throw new InvalidInputError([{ field: '--media-dir', message: `--media-dir ${dir}: not a folder`, fix: 'name the folder that holds the media, not a file' }]);
    out.push(real);
  }
  return [...new Set(out)];
}

/**
 * The media list with each local path replaced by where it really leads, so what is checked is
 * what gets read. Relative paths and URLs are left to the usual checks.
 */
export async function admitMediaPaths(media: readonly string[] | undefined, allowed: readonly string[], field = 'media'): Promise<string[] | undefined> {
  if (!media) return undefined;
  const out: string[] = [];
  for (const [i, item] of media.entries()) {
    const path = item.trim();
    if (URL_LIKE.test(path) || !isAbsolute(path)) {
      out.push(item);
      continue;
    }
    const real = await realLocation(path);
    if (!allowed.some((dir) => isInside(real, dir))) {
      const where = allowed.length
        ? `a local file is taken only from the folders this server was started with (--media-dir ${allowed.join(', ')})`
        : 'this server takes no local files: it was started without --media-dir';
      throw new InvalidInputError([{ field: `${field}[${i}]`, message: `${field}[${i}]: ${where}`, fix: 'give an https:// URL, or ask the user to start `socialpub mcp --media-dir FOLDER` with a folder that holds the file' }]);
    }
    out.push(real);
  }
  return out;
}

/** The path with every link resolved; for a path that does not exist, its nearest existing folder's. */
async function realLocation(path: string): Promise<string> {
  const missing: string[] = [];
  for (let current = resolve(path); ; ) {
    try {
      return join(await realpath(current), ...missing);
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      missing.unshift(basename(current));
      current = parent;
    }
  }
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
