// Profiles on disk. Reads parse the JSON file directly (cheap, on every command's path).
// A save holds config.json.lock while it re-reads the file, applies its change and writes the
// whole file atomically (a temporary file created 0600, flushed, renamed over it), so parallel
// saves from several processes all land. The file is kept 0600 in a 0700 folder, also when it
// already existed with looser modes: checked on the first read and on every write. A
// config.json that is a symbolic link is read but never written through: the key would land
// in whatever folder the link points to while the message names the config folder.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { profileNameProblem, type Keyring, type Profile, type ProfileStore } from './types.js';
import { CONFIG_FILE } from './paths.js';
import { DIR_MODE, describeModeChange, tightenModes, untrustedConfigPath } from './file-modes.js';
import { ConfigUntrustedError, configAccessError, refuseLink } from './access-error.js';
import { systemKeyring } from './system-keyring.js';
import { mergeForSave, parseConfigText, writtenProfiles, type FileShape, type ParsedFile } from './file-shape.js';

export interface StoreOptions {
  /** The system's credential store; default: the real one; null: none (tests). */
  keyring?: Keyring | null | undefined;
  /** Told about modes that were too loose (and were tightened, or could not be). */
  warn?: (message: string) => void;
  /** The user the folder must belong to (default: this process's). */
  uid?: number;
  platform?: NodeJS.Platform;
}

function readFile(dir: string, path: string): ParsedFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    // ENOTDIR: a file where the folder should be; nothing can be saved there yet, so there is
    // nothing to read either (a write says what is wrong).
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { raw: {}, data: {}, problems: [] };
    throw configAccessError(err, { dir, path, writing: false });
  }
  return parseConfigText(text, path);
}

const own = <T>(record: Record<string, T> | undefined, key: string): T | undefined =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;

function assertName(name: string): void {
  const problem = profileNameProblem(name);
  if (problem) throw new Error(problem);
}

export function openProfileStore(dir: string, options: StoreOptions = {}): ProfileStore {
  const path = join(dir, CONFIG_FILE);
  const platform = options.platform ?? process.platform;
  let cache: FileShape | undefined;
  /** Every profile entry in the file, also those that could not be used. */
  let written = new Set<string>();

  // Modes are checked on every save (a login saves twice): a link that stays loose is told once.
  const told = new Set<string>();
  const warn = (message: string) => {
    if (told.has(message)) return;
    told.add(message);
    options.warn?.(message);
  };
  // What could not be tightened (not ours) is refused: it could hand this user's key to someone else.
  const refuseUntrusted = (ownerOnly = false) => {
    const untrusted = untrustedConfigPath(dir, path, { platform, uid: options.uid, ownerOnly });
    if (untrusted) throw new ConfigUntrustedError(untrusted);
  };
  const fixModes = () => {
    // Another user's folder is refused before anything in it is changed.
    refuseUntrusted(true);
    for (const change of tightenModes(dir, path, platform)) warn(describeModeChange(change));
    refuseUntrusted();
  };
  const data = () => {
    if (cache) return cache;
    const read = readFile(dir, path);
    // Only a folder that holds our file is touched on a read; nothing read is used before the check.
    if (Object.keys(read.raw).length > 0 || read.problems.length > 0) fixModes();
    else refuseUntrusted();
    cache = read.data;
    written = new Set(Object.keys(writtenProfiles(read)));
    for (const problem of read.problems) warn(problem);
    return cache;
  };

  /** Under the lock: re-reads the file, applies the change and writes it whole; returns what was written. */
  const save = async (change: (current: FileShape, read: ParsedFile) => FileShape, removed?: string): Promise<FileShape> => {
    const writable = <T>(step: () => T): T => {
      try {
        return step();
      } catch (err) {
        throw configAccessError(err, { dir, path, writing: true });
      }
    };
    writable(() => mkdirSync(dir, { recursive: true, mode: DIR_MODE }));
    fixModes();
    // Loaded only when something is saved: reads stay off node:crypto.
    const { withSaveLock, writeAtomically } = await import('./save-file.js');
    const next = await withSaveLock(`${path}.lock`, async () => {
      refuseLink(path);
      const read = readFile(dir, path);
      const updated = change(read.data, read);
      const merged = mergeForSave(read, updated, removed);
      await writeAtomically(path, `${JSON.stringify(merged, undefined, '\t')}\n`);
      written = new Set(Object.keys(writtenProfiles({ raw: merged })));
      return updated;
    }).catch((err: unknown) => {
      throw configAccessError(err, { dir, path, writing: true });
    });
    cache = next;
    return next;
  };

  return {
    dir,
    path,
    keyring: options.keyring === undefined ? systemKeyring({ platform }) : (options.keyring ?? undefined),
    current: () => data().current,
    names: () => Object.keys(data().profiles ?? {}).sort(),
    get: (name) => own(data().profiles, name),
    async set(name, profile) {
      assertName(name);
      await save((d) => ({ ...d, profiles: { ...d.profiles, [name]: profile } }));
    },
    async update(name, change) {
      assertName(name);
      let updated: Profile | undefined;
      await save((d) => {
        updated = change(own(d.profiles, name));
        return { ...d, profiles: { ...d.profiles, [name]: updated } };
      });
      return updated!;
    },
    async remove(name) {
      data();
      if (!written.has(name)) return false;
      let removed = false;
      await save((d, read) => {
        if (!Object.hasOwn(writtenProfiles(read), name)) return d;
        removed = true;
        const { [name]: _gone, ...rest } = d.profiles ?? {};
        const next: FileShape = { ...d, profiles: rest };
        if (next.current === name) delete next.current;
        return next;
      }, name);
      return removed;
    },
    async use(name) {
      assertName(name);
      await save((d) => {
        if (!own(d.profiles, name)) throw new Error(`there is no profile named "${name}"`);
        return { ...d, current: name };
      });
    },
  };
}
