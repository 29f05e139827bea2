// The file `posts edit --editor` opens: one section per platform, headed "=== <platform> ===",
// holding that platform's text as it is; lines starting with "//" are comments (the limits, how
// to use the file) and are dropped. "#" is left alone: hashtags start lines of real posts.
// Where the platform takes them, a section also holds the thread's parts (a line holding only
// `---` starts the next part, as in a `--thread` text file), and blocks headed
// "--- first comment ---", "--- alt N: <media> ---" (a later part's media: "--- part P alt N:
// <media> ---") and "--- options ---" (KEY = VALUE lines).
// Read back with the line of each value, so that a problem names the line it is on.
import { PLATFORM_LIMITS, isPlatform } from '../wire/platforms.js';
import { allowedText, optionSpec, PLATFORM_EXTRAS, takesThread } from '../wire/post-extras.js';
import { judgeText, unitWord } from '../wire/text-limits.js';
import type { InputIssue as Issue } from '../wire/invalid-input.js';
import { readValue } from './extras.js';
import { isObject, textOf, type Payload } from './outcome.js';

const HEADER = /^=== *([A-Za-z0-9_-]+) *===\s*$/;
/** "--- first comment ---", "--- options ---", "--- alt 2: photo.jpg ---", "--- part 3 alt 1: map.png ---". A line of only `---` is a part marker. */
const BLOCK = /^--- *(first comment|options|(?:part +(\d+) +)?alt +(\d+)\b.*?) *---\s*$/i;
const PART = /^[ \t]*---[ \t]*$/;
/** Comment lines are kept within this width (a narrow terminal); limit lines are the platform's own. */
const WIDTH = 72;

/** "// bluesky: at most 300 graphemes; now 12": a platform's limit in its unit, and the text's count. */
function limitLine(platform: string, text: string): string | undefined {
  if (!isPlatform(platform)) return undefined;
  const v = judgeText(platform, text);
  return `// ${platform}: at most ${v.limit} ${unitWord(platform, v.limit)}${PLATFORM_LIMITS[platform].textUnit === 'x-weighted' ? ' (emoji and CJK count 2, links 23)' : ''}; now ${v.count.length}`;
}

/** Words as "//" lines of at most WIDTH columns; later lines indented under the first. */
function commentLines(words: string): string[] {
  const lines: string[] = [];
  let line = '//';
  for (const word of words.split(' ')) {
    if (line.length + 1 + word.length > WIDTH && line.trim() !== '//') {
      lines.push(line);
      line = '//  ';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/**
 * The file the editor opens to compose a new text for these platforms: the limits as comments
 * (as `posts edit --editor` shows them), then the text. Read back with parseComposeFile.
 */
export function composeFile(platforms: readonly string[], text: string, thread = false): string {
  const lines = [
    `// The text for ${platforms.join(', ')}. Lines starting with // are ignored;`,
    '// save and quit to use it, or empty the file to give up.',
    // Split into a thread, the limits are each part's, and the parts may be marked by hand.
    ...(thread ? ['// A thread: a text too long for one post is split; a line', '// holding only --- starts the next part.'] : platforms.flatMap((p) => limitLine(p, text) ?? [])),
  ];
  return `${lines.join('\n')}\n${text}`;
}

/** The text of a compose file: its comment lines dropped. */
export function parseComposeFile(content: string): string {
  return content
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((line) => !line.startsWith('//'))
    .join('\n');
}

/** What one platform's section shows: the text, and the fields beyond it that the platform takes. */
export interface EditorPayload {
  text: string;
  /** The thread's later parts (the text is the first). */
  thread?: readonly string[];
  firstComment?: string;
  /** The media items alt text describes: a short name each, and the alt text it has. Left out: no alt blocks. */
  media?: readonly EditorMedia[];
  /** The media of each later part (by thread index: 0 is part 2), as `media` shows them. */
  threadMedia?: readonly (readonly EditorMedia[])[];
  options?: Readonly<Record<string, unknown>>;
}

export interface EditorMedia {
  name: string;
  alt?: string;
}

/** A media list of the service's as alt blocks show it. */
function editorMedia(media: unknown): EditorMedia[] {
  const items = Array.isArray(media) ? media.filter(isObject) : [];
  return items.map((m) => ({ name: mediaName(m.url), ...(typeof m.alt === 'string' ? { alt: m.alt } : {}) }));
}

/**
 * A payload as the service sent it, as its section shows it. `withMedia: false`: no alt blocks
 * for the post's own media (new media are being given); the later parts keep theirs.
 */
export function editorPayload(payload: Payload | undefined, withMedia = true): EditorPayload {
  const parts = Array.isArray(payload?.thread) ? payload.thread.filter(isObject) : [];
  const thread = parts.map((t) => textOf(t));
  const threadMedia = parts.map((t) => editorMedia(t.media));
  return {
    text: textOf(payload),
    ...(thread.length ? { thread } : {}),
    ...(threadMedia.some((m) => m.length) ? { threadMedia } : {}),
    ...(typeof payload?.firstComment === 'string' ? { firstComment: payload.firstComment } : {}),
    ...(withMedia ? { media: editorMedia(payload?.media) } : {}),
    ...(isObject(payload?.options) ? { options: payload.options } : {}),
  };
}

/** The last part of a media URL, on one line and without control characters. */
function mediaName(url: unknown): string {
  const name = String(url ?? '').replace(/[?#].*$/s, '').split('/').filter(Boolean).pop() ?? 'media';
  return name.replace(/[\u0000-\u001f\u007f-\u009f]|---/g, '?').slice(0, 48);
}

/** A setting's value as a line shows it: tags comma-separated, text as it is. */
function shownValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function sectionLines(platform: string, payload: EditorPayload): string[] {
  const lines = [`=== ${platform} ===`];
  const limit = limitLine(platform, payload.text);
  if (limit) lines.push(limit);
  if (!isPlatform(platform)) return [...lines, payload.text];
  const extras = PLATFORM_EXTRAS[platform];
  if (extras.thread) {
    lines.push(...commentLines(`A thread: a line holding only --- starts the next part (each part within the limit above; at most ${extras.thread.maxParts} parts).`));
    lines.push([payload.text, ...(payload.thread ?? [])].join('\n---\n'));
  } else lines.push(payload.text);
  if (extras.firstComment) {
    const rule = extras.firstComment;
    const unit = rule.asReply ? unitWord(platform, rule.max) : 'characters';
    lines.push('', '--- first comment ---', ...commentLines(`Posted ${rule.asReply ? 'as a reply ' : ''}right after the post; at most ${rule.max} ${unit}. Empty: none.`), payload.firstComment ?? '');
  }
  if (extras.alt) {
    const max = extras.alt.max;
    const block = (m: EditorMedia, i: number, part?: number) => [
      '',
      `--- ${part ? `part ${part} ` : ''}alt ${i + 1}: ${m.name} ---`,
      ...commentLines(`Alt text of media ${i + 1}${part ? ` of thread part ${part}` : ''}; at most ${max} characters. Empty: none.`),
      m.alt ?? '',
    ];
    (payload.media ?? []).forEach((m, i) => lines.push(...block(m, i)));
    if (extras.thread) (payload.threadMedia ?? []).forEach((items, t) => items.forEach((m, i) => lines.push(...block(m, i, t + 2))));
  }
  const given = payload.options ?? {};
  const unknown = Object.keys(given).filter((k) => !optionSpec(platform, k));
  if (extras.options.length || unknown.length) {
    lines.push('', '--- options ---', ...commentLines('One KEY = VALUE a line; an empty value leaves the setting out.'));
    for (const spec of extras.options) lines.push(...commentLines(`${spec.key}: ${allowedText(spec)}; ${spec.describe}`), `${spec.key} = ${shownValue(given[spec.key])}`);
    for (const key of unknown) lines.push(`${key} = ${shownValue(given[key])}`);
  }
  return lines;
}

export function editorFile(postId: string, payloads: ReadonlyMap<string, EditorPayload>): string {
  // Short lines: the editor may sit in a narrow terminal.
  const lines = [
    `// Editing the texts of ${postId}, one section per platform.`,
    '// Lines starting with // are ignored. Save and quit to apply;',
    '// an unchanged or empty file changes nothing.',
  ];
  for (const [platform, payload] of payloads) lines.push('', ...sectionLines(platform, payload));
  return `${lines.join('\n')}\n`;
}

/** A value as written, with the line it starts on (1-based, in the file as saved). */
export interface AtLine<T> {
  value: T;
  line: number;
}

/** One platform's section as written. A block left out of the file is undefined (the value stays as it is). */
export interface EditedSection {
  /** The whole text as written (for a thread, its parts with the `---` lines between them). */
  text: string;
  /** Where the platform takes threads: the parts as marked, the first being the post's text. */
  parts?: AtLine<string>[];
  /** "" removes the first comment. */
  firstComment?: AtLine<string>;
  /** By media index (0-based); "" removes the alt text. */
  alt?: Map<number, AtLine<string>>;
  /** The later parts' alt texts: by thread index (0 is part 2), then as `alt`. */
  partAlt?: Map<number, Map<number, AtLine<string>>>;
  /** The settings written, by key (the raw text of each value); the block's own line. */
  options?: AtLine<Map<string, AtLine<string>>>;
}

export interface EditedFile {
  sections: Map<string, EditedSection>;
  /** Lines that cannot be read (an options line without "="), each named by its line. */
  issues: Issue[];
}

interface Block {
  kind: 'text' | 'first comment' | 'options' | 'alt';
  index?: number;
  /** An alt block's thread part, as numbered in the file (1: the post itself). */
  part?: number;
  line: number;
  body: AtLine<string>[];
}

/** Lines of a block without the blank ones at either end. */
function trimmed(body: readonly AtLine<string>[]): AtLine<string>[] {
  let start = 0;
  let end = body.length;
  while (start < end && body[start]!.value.trim() === '') start++;
  while (end > start && body[end - 1]!.value.trim() === '') end--;
  return body.slice(start, end);
}

const joined = (body: readonly AtLine<string>[]) => body.map((l) => l.value).join('\n');

/** The parts of a thread's text block, split at `---` lines, each trimmed, empty ones dropped. */
function partsOf(body: readonly AtLine<string>[]): AtLine<string>[] {
  const parts: AtLine<string>[] = [];
  let current: AtLine<string>[] = [];
  const close = () => {
    const t = trimmed(current);
    if (t.length) parts.push({ value: joined(t).trim(), line: t[0]!.line });
    current = [];
  };
  for (const l of body) {
    if (PART.test(l.value)) close();
    else current.push(l);
  }
  close();
  return parts;
}

function readSection(platform: string, blocks: readonly Block[], issues: Issue[]): EditedSection {
  const [text, ...rest] = blocks;
  const body = trimmed(text!.body);
  const section: EditedSection = { text: joined(body) };
  if (isPlatform(platform) && takesThread(platform)) section.parts = partsOf(body);
  for (const b of rest) {
    const value = { value: joined(trimmed(b.body)).trim(), line: trimmed(b.body)[0]?.line ?? b.line };
    if (b.kind === 'first comment') section.firstComment = value;
    else if (b.kind === 'alt' && (b.part ?? 1) !== 1 && !section.parts) {
      issues.push({ field: `line ${b.line}`, message: `line ${b.line} (${platform}): ${platform} publishes no threads, so there is no part ${b.part} to describe`, fix: `describe the post's own media under "--- alt N: … ---", or remove the block` });
    } else if (b.kind === 'alt' && (b.part ?? 1) !== 1) {
      const parts = (section.partAlt ??= new Map());
      if (!parts.has(b.part! - 2)) parts.set(b.part! - 2, new Map());
      parts.get(b.part! - 2)!.set(b.index!, value);
    } else if (b.kind === 'alt') (section.alt ??= new Map()).set(b.index!, value);
    else {
      const options = new Map<string, AtLine<string>>();
      for (const l of b.body) {
        if (l.value.trim() === '') continue;
        const m = /^\s*([^=\s]+)\s*=(.*)$/.exec(l.value);
        if (!m) {
          issues.push({ field: `line ${l.line}`, message: `line ${l.line} (${platform} options): "${l.value.trim()}" is not KEY = VALUE`, fix: 'write a setting as privacy = unlisted, or start the line with // to leave it out' });
          continue;
        }
        const earlier = options.get(m[1]!);
        if (earlier) issues.push({ field: `line ${l.line}`, message: `line ${l.line} (${platform} options): ${m[1]} is set twice (also on line ${earlier.line})`, fix: 'keep one of the two lines' });
        options.set(m[1]!, { value: m[2]!.trim(), line: l.line });
      }
      section.options = { value: options, line: b.line };
    }
  }
  return section;
}

/**
 * The sections as written, or 'empty' for a file with no text at all. A section's surrounding
 * blank lines are trimmed; a platform whose section (or block) was deleted keeps what it has.
 */
export function parseEditorFile(content: string): EditedFile | 'empty' {
  const issues: Issue[] = [];
  const sections = new Map<string, Block[]>();
  let blocks: Block[] | undefined;
  content
    .replace(/\r\n/g, '\n')
    .split('\n')
    .forEach((value, i) => {
      const line = i + 1;
      if (value.startsWith('//')) return;
      const header = HEADER.exec(value);
      if (header) {
        blocks = [{ kind: 'text', line, body: [] }];
        sections.set(header[1]!, blocks);
        return;
      }
      if (!blocks) return;
      const block = BLOCK.exec(value);
      if (block) {
        const name = block[1]!.toLowerCase();
        blocks.push(
          block[3] !== undefined
            ? { kind: 'alt', index: Number(block[3]) - 1, ...(block[2] !== undefined ? { part: Number(block[2]) } : {}), line, body: [] }
            : { kind: name as 'first comment' | 'options', line, body: [] },
        );
        return;
      }
      blocks[blocks.length - 1]!.body.push({ value, line });
    });
  const read = new Map<string, EditedSection>();
  for (const [platform, b] of sections) read.set(platform, readSection(platform, b, issues));
  return [...read.values()].every((s) => s.text.trim() === '') ? 'empty' : { sections: read, issues };
}

/** A section's values without their lines: two sections that say the same compare equal. */
export function sectionValues(s: EditedSection): string {
  const lines = <T>(m: ReadonlyMap<T, AtLine<string>> | undefined) => (m ? [...m].map(([k, v]) => [k, v.value]) : null);
  const parts = s.partAlt ? [...s.partAlt].map(([t, m]) => [t, lines(m)]) : null;
  return JSON.stringify([s.text, s.firstComment?.value ?? null, lines(s.alt), parts, lines(s.options?.value)]);
}

/** What an edited section changes, as planEdit takes it (see PayloadEdit in edit.ts). */
export interface SectionChange {
  /** The text: the first part of a thread, or with `resplit` the whole block for the splitter. */
  text: string;
  /** The later parts, as written (not given with `resplit`). */
  thread?: string[];
  firstComment?: string | null;
  alt?: Map<number, string | null>;
  /** The later parts' alt texts, by thread index then media index (with `resplit`, for the new part in the old one's place, which keeps its media). */
  partAlt?: Map<number, Map<number, string | null>>;
  /** The settings as a whole, each value read as its kind says (a list of tags, true/false). */
  options?: Record<string, unknown>;
  /** A field of the payload named by its line: "line 14 (youtube option privacy)". */
  fieldOf: (path: string) => string | undefined;
}

/** A section's values as changes; `resplit` (--thread): the parts are split again by the platform's limit. */
export function sectionChange(platform: string, s: EditedSection, resplit: boolean): SectionChange {
  const parts = s.parts && !resplit ? s.parts : undefined;
  const options: Record<string, unknown> = {};
  for (const [key, v] of s.options?.value ?? []) {
    if (v.value === '') continue;
    const spec = isPlatform(platform) ? optionSpec(platform, key) : undefined;
    options[key] = spec ? readValue(spec, v.value) : v.value;
  }
  const at = (line: number | undefined, what: string) => (line === undefined ? undefined : `line ${line} (${platform} ${what})`);
  const altValues = (m: ReadonlyMap<number, AtLine<string>>) => new Map([...m].map(([i, v]) => [i, v.value === '' ? null : v.value]));
  return {
    text: parts ? (parts[0]?.value ?? '') : s.text,
    ...(parts ? { thread: parts.slice(1).map((p) => p.value) } : {}),
    ...(s.firstComment ? { firstComment: s.firstComment.value === '' ? null : s.firstComment.value } : {}),
    ...(s.alt ? { alt: altValues(s.alt) } : {}),
    ...((parts || resplit) && s.partAlt ? { partAlt: new Map([...s.partAlt].map(([t, m]) => [t, altValues(m)])) } : {}),
    ...(s.options ? { options } : {}),
    fieldOf: (path) => {
      const partAlt = /^thread\[(\d+)\]\.media\[(\d+)\]\.alt$/.exec(path);
      if (partAlt) {
        const [t, i] = [Number(partAlt[1]), Number(partAlt[2])];
        return at(s.partAlt?.get(t)?.get(i)?.line, `thread part ${t + 2} alt text ${i + 1}`);
      }
      const part = /^thread\[(\d+)\]/.exec(path);
      if (part) return at(parts?.[Number(part[1]) + 1]?.line, `thread part ${Number(part[1]) + 2}`);
      if (path === 'firstComment') return at(s.firstComment?.line, 'first comment');
      const alt = /^media\[(\d+)\]\.alt$/.exec(path);
      if (alt) return at(s.alt?.get(Number(alt[1]))?.line, `alt text ${Number(alt[1]) + 1}`);
      const option = /^options\.(.+)$/.exec(path);
      if (option) return at(s.options?.value.get(option[1]!)?.line ?? s.options?.line, `option ${option[1]}`);
      return path === 'options' ? at(s.options?.line, 'options') : undefined;
    },
  };
}
