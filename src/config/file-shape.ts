// What the profiles file holds, as read: the parts that can be used, and what is wrong with the
// rest. A hand-edited or newer file may hold anything: a profile that is a string, a base URL
// that is a number, fields from a later version. Reads use what they can and say what they
// skipped; a save writes back everything it did not change as it was, so that logging in to one
// profile never silently deletes another one the user can still repair.
import { parseJsonWithLocation } from '../wire/json-location.js';
import type { Profile } from './types.js';

export interface FileShape {
  current?: string;
  profiles?: Record<string, Profile>;
  [other: string]: unknown;
}

export interface ParsedFile {
  /** The file's top-level object as written (empty for an empty or missing file). */
  raw: Record<string, unknown>;
  /** What can be used: wrong types left out. */
  data: FileShape;
  /** One sentence per thing left out, naming it. */
  problems: string[];
  /** Set when the file cannot be saved without losing something (its top level is not an object). */
  unsavable?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** Every profile entry as written, also those that cannot be used. */
export const writtenProfiles = (read: Pick<ParsedFile, 'raw'>): Record<string, unknown> => (isObject(read.raw.profiles) ? read.raw.profiles : {});

const PROFILE_FIELDS: Record<string, (v: unknown) => boolean> = {
  baseUrl: (v) => typeof v === 'string',
  apiKey: (v) => typeof v === 'string',
  keyStorage: (v) => v === 'keyring',
  // A string that names no API is refused when the profile is used (exit 2, naming the values).
  api: (v) => typeof v === 'string',
  apiSource: (v) => v === 'set' || v === 'detected',
};

const MISNAMED_KEY = /^(api[_-]?key|apikey|key|token|api[_-]?token)$/i;

/** Parses the file's text; a syntax error names the file, the line and column, and the fix. */
export function parseConfigText(text: string, path: string): ParsedFile {
  // Editors on Windows may start the file with a byte-order mark, which JSON does not allow.
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return { raw: {}, data: {}, problems: [] };
  const parsed = parseJsonWithLocation(body);
  if (!parsed.ok) {
    const { line, column, message } = parsed.problem;
    // The line itself is not quoted: it may hold an API key.
    throw new Error(
      `the config file ${path} is not valid JSON: line ${line}, column ${column}: ${message}. Fix it in an editor, or move it aside (mv ${path} ${path}.bak) and run \`socialpub auth login\` to start a new one`,
    );
  }
  return shapeOf(parsed.value, path);
}

function shapeOf(value: unknown, path: string): ParsedFile {
  if (!isObject(value)) {
    const unsavable = `the config file ${path} holds ${kindOf(value)}, not an object ({ "profiles": { … } }); fix it in an editor, or move it aside (mv ${path} ${path}.bak)`;
    return { raw: {}, data: {}, problems: [`${unsavable}; its contents are ignored`], unsavable };
  }
  const problems: string[] = [];
  const where = `in ${path}`;
  const data: FileShape = { ...value };
  if (data.current !== undefined && typeof data.current !== 'string') {
    problems.push(`"current" ${where} is ${kindOf(data.current)}, not a profile name; it is ignored`);
    delete data.current;
  }
  const profiles: Record<string, Profile> = {};
  if (value.profiles !== undefined && !isObject(value.profiles)) {
    const unsavable = `"profiles" ${where} is ${kindOf(value.profiles)}, not an object of profiles by name; fix it in an editor, or move the file aside (mv ${path} ${path}.bak)`;
    return { raw: value, data: { ...data, profiles }, problems: [...problems, `${unsavable}; no profile can be read from it`], unsavable };
  }
  for (const [name, p] of Object.entries(writtenProfiles({ raw: value }))) {
    if (!isObject(p)) {
      problems.push(`profile "${name}" ${where} is ${kindOf(p)}, not an object; it is ignored: fix it in an editor, or run \`socialpub profile remove ${name}\``);
      continue;
    }
    const profile: Profile = { ...p };
    for (const [field, ok] of Object.entries(PROFILE_FIELDS)) {
      if (profile[field] === undefined || ok(profile[field])) continue;
      problems.push(`"${field}" of profile "${name}" ${where} is ${field === 'keyStorage' || field === 'apiSource' ? JSON.stringify(profile[field]) : kindOf(profile[field])}, which socialpub cannot use; it is ignored: fix it in an editor`);
      delete profile[field];
    }
    // A key written by hand under another name is not used: say which name is read.
    const misnamed = profile.apiKey === undefined && profile.keyStorage === undefined ? Object.keys(profile).find((f) => MISNAMED_KEY.test(f)) : undefined;
    if (misnamed) problems.push(`profile "${name}" ${where} has "${misnamed}", which socialpub does not read: the key goes in "apiKey" (rename the field, or run \`socialpub auth login --profile ${name}\`)`);
    profiles[name] = profile;
  }
  data.profiles = profiles;
  return { raw: value, data, problems };
}

/**
 * The object to write after a change turned `read.data` into `next`: what the change did not
 * touch keeps its written form, including entries that could not be used.
 */
export function mergeForSave(read: ParsedFile, next: FileShape, removed?: string): Record<string, unknown> {
  if (read.unsavable) throw new Error(`cannot save the profiles: ${read.unsavable}; nothing was saved`);
  const before = read.data;
  const rawProfiles = writtenProfiles(read);
  // `next` came from the usable part, which keeps every top-level field but an unusable "current".
  const out: Record<string, unknown> = { ...next };
  // A "current" that could not be read stays unless the change set or cleared a usable one.
  if (next.current === undefined && before.current === undefined && read.raw.current !== undefined) out.current = read.raw.current;
  // A profile the change rewrote is written as the change made it: a field of the wrong type in
  // it goes (a newer version's "keyStorage" must not outlive a key this one saved in the file).
  const changed = (name: string, profile: Profile): unknown => (profile === before.profiles?.[name] ? rawProfiles[name] : profile);
  const profiles: Record<string, unknown> = {};
  for (const [name, written] of Object.entries(rawProfiles)) {
    if (next.profiles && Object.hasOwn(next.profiles, name)) profiles[name] = changed(name, next.profiles[name]!);
    // Left out on reading: kept as written. A usable profile missing from `next` was removed.
    else if (name !== removed && !(before.profiles && Object.hasOwn(before.profiles, name))) profiles[name] = written;
  }
  for (const [name, profile] of Object.entries(next.profiles ?? {})) {
    if (!Object.hasOwn(rawProfiles, name)) profiles[name] = profile;
  }
  out.profiles = profiles;
  return out;
}
