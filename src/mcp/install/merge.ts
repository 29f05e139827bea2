// The server's entry merged into a client's configuration text, everything else kept: JSON files
// (parsed and written back with their indentation), and Codex's TOML (the entry's own table
// replaced or appended, every other line left byte for byte). A file that cannot be read as its
// format is refused, never overwritten.
import type { FileFormat, ServerEntry } from './clients.js';

export type MergeAction = 'added' | 'replaced' | 'unchanged';

export interface Merged {
  text: string;
  action: MergeAction;
}

/** The file cannot be merged into: what is wrong with it (the caller names the file). */
export class MalformedConfigError extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'MalformedConfigError';
  }
}

/** Server names this writes: a bare TOML key, and a plain JSON property. */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function mergeEntry(existing: string | undefined, format: FileFormat, name: string, entry: ServerEntry): Merged {
  return format.kind === 'json' ? mergeJson(existing, format.key, format.stdioType, name, entry) : mergeToml(existing, format.table, name, entry);
}

function mergeJson(existing: string | undefined, key: string, stdioType: boolean, name: string, entry: ServerEntry): Merged {
  let doc: Record<string, unknown> = {};
  if (existing !== undefined && existing.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch (err) {
      const comments = /^\s*\/\/|\/\*/m.test(existing) ? ' (it has comments, which this command does not keep)' : '';
      throw new MalformedConfigError(`is not valid JSON${comments}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new MalformedConfigError('is not a JSON object');
    doc = parsed as Record<string, unknown>;
  }
  const servers = doc[key] ?? {};
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) throw new MalformedConfigError(`"${key}" is not an object`);
  const value = stdioType ? { type: 'stdio', ...entry } : { ...entry };
  const before = (servers as Record<string, unknown>)[name];
  const action: MergeAction = before === undefined ? 'added' : JSON.stringify(before) === JSON.stringify(value) ? 'unchanged' : 'replaced';
  const indent = existing?.match(/^[{[]\s*\n([ \t]+)/)?.[1] ?? '  ';
  const text = `${JSON.stringify({ ...doc, [key]: { ...(servers as Record<string, unknown>), [name]: value } }, null, indent)}\n`;
  return { text: action === 'unchanged' && existing !== undefined ? existing : text, action };
}

const tomlString = (s: string) => JSON.stringify(s);

function tomlTable(table: string, name: string, entry: ServerEntry): string {
  const lines = [`[${table}.${name}]`, `command = ${tomlString(entry.command)}`, `args = [${entry.args.map(tomlString).join(', ')}]`];
  if (entry.env) lines.push(`env = { ${Object.entries(entry.env).map(([k, v]) => `${k} = ${tomlString(v)}`).join(', ')} }`);
  return `${lines.join('\n')}\n`;
}

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$/;

/**
 * A light check that the file is TOML this can edit line by line: every line outside a
 * multi-line string or array is blank, a comment, a table header or `key = value`.
 */
function checkTomlLines(lines: readonly string[]): void {
  let openArray = 0;
  let openString: string | undefined;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (openString) {
      if (line.includes(openString)) openString = undefined;
      continue;
    }
    if (openArray > 0) {
      openArray += (line.match(/\[/g) ?? []).length - (line.match(/\]/g) ?? []).length;
      continue;
    }
    if (line === '' || line.startsWith('#') || HEADER.test(line)) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new MalformedConfigError(`line ${i + 1} is not TOML this command can edit: ${JSON.stringify(line.slice(0, 60))}`);
    const value = line.slice(eq + 1).trim();
    const triple = value.match(/^("""|''')/)?.[1];
    if (triple && value.indexOf(triple, 3) < 0) openString = triple;
    else if (value.startsWith('[')) openArray = (value.match(/\[/g) ?? []).length - (value.match(/\]/g) ?? []).length;
  }
  if (openString || openArray > 0) throw new MalformedConfigError('ends inside an unfinished string or array');
}

/** Whether the server is set with a dotted key or an inline table rather than its own [table]. */
function definedInline(lines: readonly string[], table: string, name: string): boolean {
  const key = `"?${name}"?`;
  let current = '';
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header) {
      current = header[1]!.replace(/\s+|"/g, '');
      continue;
    }
    // Inside the server's own [table] (or a sub-table of it): the form this command edits.
    if (current === `${table}.${name}` || current.startsWith(`${table}.${name}.`)) continue;
    const path = current ? `${current}.` : '';
    const assigned = line.match(/^\s*([^=#]+?)\s*=/)?.[1]?.replace(/\s+|"/g, '');
    if (!assigned) continue;
    const whole = `${path}${assigned}`;
    if (whole === `${table}.${name}` || whole.startsWith(`${table}.${name}.`)) return true;
    if (whole === table && new RegExp(`[{,]\\s*${key}\\s*=`).test(line)) return true;
  }
  return false;
}

function mergeToml(existing: string | undefined, table: string, name: string, entry: ServerEntry): Merged {
  const ours = tomlTable(table, name, entry);
  if (existing === undefined || existing.trim() === '') return { text: ours, action: 'added' };
  const lines = existing.split('\n');
  checkTomlLines(lines);
  const full = `${table}.${name}`;
  const isOurs = (header: string) => header.replace(/\s+|"/g, '') === full || header.replace(/\s+|"/g, '').startsWith(`${full}.`);
  // Defined some other way (a dotted key, an inline table): not ours to rewrite.
  if (definedInline(lines, table, name)) throw new MalformedConfigError(`defines ${name} in a form this command does not edit (a dotted key or an inline table); change it by hand`);
  const start = lines.findIndex((l) => HEADER.exec(l) && isOurs(HEADER.exec(l)![1]!));
  if (start < 0) {
    const sep = existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    return { text: `${existing}${sep}${ours}`, action: 'added' };
  }
  let end = start + 1;
  while (end < lines.length && !(HEADER.exec(lines[end]!) && !isOurs(HEADER.exec(lines[end]!)![1]!))) end++;
  // Blank lines before the next table stay with it.
  while (end > start + 1 && lines[end - 1]!.trim() === '') end--;
  const before = lines.slice(start, end).join('\n');
  if (`${before}\n` === ours) return { text: existing, action: 'unchanged' };
  const text = [...lines.slice(0, start), ...ours.trimEnd().split('\n'), ...lines.slice(end)].join('\n');
  return { text, action: 'replaced' };
}
