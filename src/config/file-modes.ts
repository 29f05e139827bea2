// The profiles file holds API keys: it must be 0600 in a 0700 folder. Files and folders that
// already exist with looser modes (an old install, a copied dotfile, a hand-made folder) are
// tightened, and the caller is told so it can warn. A symbolic link is never followed: chmod
// through it would change a file outside the config folder (someone's dotfiles, /etc/…), so
// a link with a loose target is only warned about.
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, statSync, type Stats } from 'node:fs';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export interface ModeChange {
  path: string;
  kind: 'file' | 'folder';
  from: number;
  to: number;
  /** Set when chmod failed (someone else's file): the looser mode stays. */
  error?: string;
  /** Set when the path is a symbolic link: its target's mode is reported, never changed. */
  linkTarget?: boolean;
}

const loose = (mode: number, wanted: number) => (mode & ~wanted) !== 0;

function tighten(path: string, kind: ModeChange['kind'], wanted: number): ModeChange | undefined {
  let link: boolean;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch {
    return undefined;
  }
  if (link) {
    let target: number;
    try {
      target = statSync(path).mode & 0o777;
    } catch {
      return undefined; // a dangling link: nothing to protect
    }
    return loose(target, wanted) ? { path, kind, from: target, to: target, linkTarget: true } : undefined;
  }
  // O_NOFOLLOW: if the path became a link since lstat, open fails instead of following it.
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | (kind === 'folder' ? constants.O_DIRECTORY : 0));
  } catch {
    return undefined;
  }
  try {
    const from = fstatSync(fd).mode & 0o777;
    // Only bits beyond the wanted ones matter: a stricter mode (0400) is left alone.
    if (!loose(from, wanted)) return undefined;
    const to = from & wanted;
    try {
      fchmodSync(fd, to);
      return { path, kind, from, to };
    } catch (err) {
      return { path, kind, from, to: from, error: (err as NodeJS.ErrnoException).code ?? String(err) };
    }
  } finally {
    closeSync(fd);
  }
}

/** Brings the folder to 0700 and the file to 0600 (no-op on Windows, where modes mean little). */
export function tightenModes(dir: string, file: string, platform: NodeJS.Platform = process.platform): ModeChange[] {
  if (platform === 'win32') return [];
  return [tighten(dir, 'folder', DIR_MODE), tighten(file, 'file', FILE_MODE)].filter((c): c is ModeChange => c !== undefined);
}

export const octal = (mode: number) => '0' + mode.toString(8).padStart(3, '0');

/** One line per change, for a warning on stderr. */
export function describeModeChange(c: ModeChange): string {
  const chmod = `chmod ${octal(c.kind === 'file' ? FILE_MODE : DIR_MODE).slice(1)}`;
  if (c.linkTarget) {
    return `the config ${c.kind} ${c.path} is a symbolic link to something with mode ${octal(c.from)}, looser than it should be for API keys; it was left alone (links are not followed): run \`${chmod}\` on its target, or replace the link`;
  }
  if (c.error) return `the config ${c.kind} ${c.path} has mode ${octal(c.from)} and could not be tightened (${c.error}); run \`${chmod} ${c.path}\``;
  return `the config ${c.kind} ${c.path} had mode ${octal(c.from)}, looser than it should be for API keys; changed it to ${octal(c.to)}`;
}

/**
 * Why the config folder or file must not be trusted, as ssh refuses a ~/.ssh of another user's
 * or one others can write: someone else could plant a config.json that sends this user's key to
 * their server, or read a key saved there. Owned by this user or by root, and writable by no one
 * else (after tightenModes, which cannot change what is not ours). Undefined when it is safe
 * (or absent). Not judged on Windows, where modes mean little.
 */
export function untrustedConfigPath(dir: string, file: string, options: { uid?: number | undefined; platform?: NodeJS.Platform; ownerOnly?: boolean } = {}): string | undefined {
  const platform = options.platform ?? process.platform;
  const uid = options.uid ?? process.getuid?.();
  if (platform === 'win32' || uid === undefined) return undefined;
  const checks: Array<[string, 'folder' | 'file', () => Stats]> = [
    [dir, 'folder', () => statSync(dir)],
    [file, 'file', () => lstatSync(file)],
  ];
  for (const [path, kind, stat] of checks) {
    let st: Stats;
    try {
      st = stat();
    } catch {
      continue; // absent: nothing to trust yet (a new folder is made 0700, ours)
    }
    // A link's own mode says nothing; links are refused on saving and warned about on reading.
    if (st.isSymbolicLink()) continue;
    if (st.uid !== uid && st.uid !== 0) {
      return `the config ${kind} ${path} belongs to another user (uid ${st.uid}, this is uid ${uid}): its profiles and keys are not trusted, and no key is saved there; fix: \`chown ${uid} ${path}\` as its owner or root, or set SOCIALPUB_CONFIG_DIR to a folder of your own`;
    }
    if (!options.ownerOnly && (st.mode & 0o022) !== 0) {
      return `the config ${kind} ${path} can be written by others (mode ${octal(st.mode & 0o777)}): its profiles and keys are not trusted, and no key is saved there; fix: \`chmod go-w ${path}\`, or set SOCIALPUB_CONFIG_DIR to a folder of your own`;
    }
  }
  return undefined;
}
