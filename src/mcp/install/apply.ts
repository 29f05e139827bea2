// `socialpub mcp install`: the change planned (which file, what it becomes), then made: the old
// file copied aside first, the new text written to a temporary file beside it and renamed over
// it, so a crash leaves either the old file or the new one, never half of one. A file with
// nothing to change is not touched.
import { constants, copyFile, mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CLIENT_INFO, configFile, serverEntry, type ClientId, type EntryOptions, type Places, type Scope, type ServerEntry } from './clients.js';
import { MalformedConfigError, mergeEntry, type MergeAction } from './merge.js';

export interface InstallPlan {
  client: ClientId;
  scope: Scope;
  file: string;
  name: string;
  entry: ServerEntry;
  action: MergeAction;
  /** The file's whole new text. */
  text: string;
  /** Whether the file exists now. */
  exists: boolean;
}

/** A configuration file that cannot be merged into, named, with its problem. */
export class ConfigFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file} ${problem}`);
    this.name = 'ConfigFileError';
  }
}

export async function planInstall(client: ClientId, scope: Scope, name: string, places: Places, options: EntryOptions): Promise<InstallPlan> {
  const file = configFile(client, scope, places);
  let existing: string | undefined;
  try {
    existing = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfigFileError(file, `cannot be read: ${(err as Error).message}`);
  }
  const entry = serverEntry(options);
  try {
    const merged = mergeEntry(existing, CLIENT_INFO[client].format, name, entry);
    return { client, scope, file, name, entry, action: merged.action, text: merged.text, exists: existing !== undefined };
  } catch (err) {
    if (err instanceof MalformedConfigError) throw new ConfigFileError(file, `${err.problem}; nothing was changed (fix it, or add the server by hand)`);
    throw err;
  }
}

/** Makes the change; returns where the old file was copied (none for a new file or no change). */
export async function applyInstall(plan: InstallPlan, now: number): Promise<string | undefined> {
  if (plan.action === 'unchanged') return undefined;
  await mkdir(dirname(plan.file), { recursive: true });
  let backup: string | undefined;
  // A new file under the user's home holds their setup: theirs alone; a project's is shared.
  let mode = plan.scope === 'user' ? 0o600 : 0o644;
  if (plan.exists) {
    mode = (await stat(plan.file)).mode & 0o777;
    backup = await copyAside(plan.file, now);
  }
  const temp = `${plan.file}.${process.pid}.tmp`;
  try {
    await writeFile(temp, plan.text, { mode, flag: 'wx' });
    await rename(temp, plan.file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  return backup;
}

/** FILE.<time>.bak, never over an earlier backup (two installs in one second keep both). */
async function copyAside(file: string, now: number): Promise<string> {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  for (let n = 0; ; n++) {
    const backup = `${file}.${stamp}${n ? `-${n}` : ''}.bak`;
    try {
      await copyFile(file, backup, constants.COPYFILE_EXCL);
      return backup;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
