// The profiles file holds API keys: it must be 0600 in a 0700 folder. Files and folders that
// already exist with looser modes (an old install, a copied dotfile, a hand-made folder) are
// tightened, and the caller is told so it can warn.
import { chmodSync, statSync } from 'node:fs';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

export interface ModeChange {
  path: string;
  kind: 'file' | 'folder';
  from: number;
  to: number;
  /** Set when chmod failed (someone else's file): the looser mode stays. */
  error?: string;
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return undefined;
  }
}

function tighten(path: string, kind: ModeChange['kind'], wanted: number): ModeChange | undefined {
  const from = modeOf(path);
  // Only bits beyond the wanted ones matter: a stricter mode (0400) is left alone.
  if (from === undefined || (from & ~wanted) === 0) return undefined;
  const to = from & wanted;
  try {
    chmodSync(path, to);
    return { path, kind, from, to };
  } catch (err) {
    return { path, kind, from, to: from, error: (err as NodeJS.ErrnoException).code ?? String(err) };
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
  if (c.error) return `the config ${c.kind} ${c.path} has mode ${octal(c.from)} and could not be tightened (${c.error}); run \`chmod ${octal(c.kind === 'file' ? FILE_MODE : DIR_MODE).slice(1)} ${c.path}\``;
  return `the config ${c.kind} ${c.path} had mode ${octal(c.from)}, looser than it should be for API keys; changed it to ${octal(c.to)}`;
}
