// --fields: dotted paths that pick and order what is printed. JSON/NDJSON rows are rebuilt with
// only those paths (nested objects in the order given); TSV and tables pick columns by name.
import type { Colors } from './colors.js';
import type { Column } from './writers.js';
import { layoutTable } from './layout.js';

/** A `--fields` value that cannot be used; the caller maps it to exit 2. */
export class FieldsError extends Error {
  override readonly name = 'FieldsError';
  constructor(
    message: string,
    /** The fields that were asked for and do not exist. */
    readonly unknown: readonly string[],
    /** The fields there are, for the message and for completion. */
    readonly available: readonly string[],
  ) {
    super(message);
  }
}

/** "id, status,error.code" → ['id', 'status', 'error.code']; empty or malformed names throw. */
export function parseFields(text: string): string[] {
  const paths = text.split(',').map((p) => p.trim());
  const bad = paths.filter((p) => !/^[^.\s]+(\.[^.\s]+)*$/.test(p));
  if (paths.length === 0 || bad.length > 0) {
    throw new FieldsError(`--fields: ${bad.map((b) => JSON.stringify(b)).join(', ')} is not a field name; give names separated by commas, with dots for nested fields (id,status,error.code)`, bad, []);
  }
  return [...new Set(paths)];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value at a dotted path, or undefined when some step is missing. */
export function valueAt(row: unknown, path: string): unknown {
  let v: unknown = row;
  for (const key of path.split('.')) {
    if (!isPlainObject(v) || !Object.hasOwn(v, key)) return undefined;
    v = v[key];
  }
  return v;
}

/**
 * A copy of the row with only these paths, in this order; nested paths rebuild their parent
 * objects (`error.code` → `{ error: { code } }`). A path missing from this row is null, so
 * every row has the same shape.
 */
export function pickFields(row: unknown, paths: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const keys = path.split('.');
    let target = out;
    for (const key of keys.slice(0, -1)) {
      if (!isPlainObject(target[key])) target[key] = {};
      target = target[key] as Record<string, unknown>;
    }
    const v = valueAt(row, path);
    target[keys[keys.length - 1]!] = v === undefined ? null : v;
  }
  return out;
}

/** The name a column answers to in `--fields`. */
export function columnField(column: { field?: string; header: string }): string {
  return column.field ?? column.header.toLowerCase();
}

/**
 * Every field name in sample rows (dotted paths into nested objects, not into arrays), or the
 * names of a column description. Several samples are merged, since an optional object (`error`)
 * is null in some rows.
 */
export function availableFields(source: readonly unknown[] | readonly { field?: string; header: string }[]): string[] {
  const names = new Set<string>();
  const walk = (v: unknown, prefix: string) => {
    if (!isPlainObject(v)) return;
    for (const [k, child] of Object.entries(v)) {
      const name = prefix ? `${prefix}.${k}` : k;
      names.add(name);
      walk(child, name);
    }
  };
  for (const item of source) {
    if (isColumnLike(item)) names.add(columnField(item));
    else walk(item, '');
  }
  return [...names];
}

function isColumnLike(v: unknown): v is { field?: string; header: string } {
  return isPlainObject(v) && typeof v.header === 'string' && typeof v.value === 'function';
}

/** Throws a FieldsError naming every unknown path and listing the known ones (the CLI adds the nearest). */
export function checkFields(paths: readonly string[], available: readonly string[]): void {
  const known = new Set(available);
  // A parent of a known path is known too (`error` when `error.code` is), and so is a path inside
  // a known field with no known children (`error.context.limit`: a context's keys are data).
  const isLeaf = (a: string) => !available.some((b) => b.startsWith(a + '.'));
  const isKnown = (p: string) =>
    known.has(p) || available.some((a) => a.startsWith(p + '.')) || available.some((a) => p.startsWith(a + '.') && isLeaf(a));
  const unknown = paths.filter((p) => !isKnown(p));
  if (unknown.length === 0) return;
  const list = unknown.map((u) => JSON.stringify(u)).join(', ');
  throw new FieldsError(`--fields: unknown field${unknown.length > 1 ? 's' : ''} ${list}; the fields are: ${available.join(', ')}`, unknown, available);
}

/**
 * Checks `paths` before any row has come, against the fields rows of this kind have: a top-level
 * name must be one of them; a path inside one (`error.context.limit`, `payloads.bluesky.text`) is
 * data, told by the rows.
 */
export function checkTopFields(paths: readonly string[] | undefined, known: readonly string[]): void {
  if (!paths) return;
  const tops = new Set(known.map((k) => k.split('.')[0]!));
  checkFields(
    paths.filter((p) => !tops.has(p.split('.')[0]!)),
    known,
  );
}

/**
 * `paths` checked before any request against what a table view can print: its columns, its rows'
 * own fields and the fields it works out. A command that writes checks so before it writes, rather
 * than refusing a misspelt name once the change is made.
 */
export function checkViewFields(paths: readonly string[] | undefined, view: { columns: readonly { field?: string; header: string }[]; fields?: readonly string[]; derived?: object }): void {
  checkTopFields(paths, [...new Set([...view.columns.map(columnField), ...(view.fields ?? []), ...Object.keys(view.derived ?? {})])]);
}

/**
 * The columns for TSV and tables, picked and ordered by `paths`. A path that is not a column but
 * is one of `dataFields` (the row's own fields) becomes a plain column showing that value.
 */
export function selectColumns<T>(columns: readonly Column<T>[], paths: readonly string[], dataFields: readonly string[] = []): Column<T>[] {
  const byName = new Map(columns.map((c) => [columnField(c), c]));
  checkFields(paths, [...new Set([...byName.keys(), ...dataFields])]);
  return paths.map((p) => {
    const column = byName.get(p);
    if (!column) return { header: p, field: p, value: (row: T) => cellText(valueAt(row, p)) };
    // Asked for by name: cut when the terminal is narrow, never dropped as a nice-to-have, and a
    // column that is otherwise never cut (an id) is cut rather than left out.
    return { ...column, optional: false, ...(column.shrink === 'never' && column.minWidth === undefined ? { minWidth: 8 } : {}) };
  });
}

function cellText(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/**
 * One object's fields as a record for people (`--fields` on a terminal or piped as text): each
 * path and its value in the order asked, nested values as indented JSON under their label.
 */
export function renderFieldRecord(value: unknown, fields: readonly string[], c: Colors): string {
  const label = fields.reduce((w, f) => Math.max(w, f.length), 0) + 2;
  const indent = ' '.repeat(label + 2);
  return fields
    .map((f) => {
      const v = valueAt(value, f);
      if (v === undefined || v === null) return `  ${c.dim(f.padEnd(label))}${c.dim(v === null ? 'null' : '(none)')}`;
      return `  ${c.dim(f.padEnd(label))}${indentedBlock(v, indent)}`;
    })
    .join('\n');
}

/**
 * A value under a record's label: a string as it is, anything else as JSON, lines after the first
 * indented. A line break before `::` is shown as \n instead: a GitHub Actions runner reads a line
 * of a job's log that starts with `::`, indented or not, as a command.
 */
export function indentedBlock(value: unknown, indent: string): string {
  // A line that would start with `::` (a CI runner's command; `visible` shows its colon as \u003a) stays on the line before.
  const text = typeof value === 'string' ? value.replace(/\r?\n([ \t]*)(?:\\u003a|:)(?=:)/g, '\\n$1:') : (JSON.stringify(value, null, 2) ?? String(value));
  return text.split('\n').join(`\n${indent}`);
}

/**
 * Columns asked for with --fields that a table this wide cannot show at all, even cut to their
 * narrowest (told on stderr, never dropped silently). Judged on the headers and the columns'
 * minimum widths, before any row arrives; `known` are the row's other field names.
 */
export function fieldsWithoutRoom<T>(columns: readonly Column<T>[], fields: readonly string[] | undefined, width: number | undefined, known: readonly string[]): string[] {
  if (!fields || !width) return [];
  const selected = selectColumns(columns, fields, known);
  const layout = layoutTable({ columns: selected, rows: [], width });
  return layout.dropped.map((i) => columnField(selected[i]!));
}
