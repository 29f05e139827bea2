// Word wrapping by display width (CJK and emoji take two columns), for prose on a terminal:
// messages, hints, narration, calendar cells. Breaks at spaces; a word wider than the line is
// split between graphemes. Line breaks in the text are kept; CJK text, which has no spaces, is
// split between characters, as it is read.
import { cutToWidth, cuttable, displayWidth, stripEscapes } from './width.js';

export interface WrapOptions {
  /** Put before every line after the first (a hanging indent); counted in the width. */
  indent?: string;
  /** Cells a string takes; default: displayWidth. */
  widthOf?: (text: string) => number;
}

// Where a line may break: between graphemes, never inside a control character shown as \uXXXX.
const segments = (text: string) => [...cuttable(text)];

/** The text as lines of at most `width` columns (no limit when width is not a positive number). */
export function wrapText(text: string, width: number, options: WrapOptions = {}): string[] {
  const indent = options.indent ?? '';
  const widthOf = options.widthOf ?? displayWidth;
  if (!(width > 0) || !Number.isFinite(width)) return text.split('\n').map((l, i) => (i === 0 ? l : indent + l));
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let used = 0;
    const room = () => width - (lines.length > 0 ? widthOf(indent) : 0);
    const flush = () => {
      lines.push((lines.length > 0 ? indent : '') + line.replace(/ +$/, ''));
      line = '';
      used = 0;
    };
    // Words with the space before them; a wide (CJK) character is a word of its own.
    for (const word of paragraph.match(/ *(?:[\u2e80-\u9fff\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]|[^ \u2e80-\u9fff\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]+)| +$/g) ?? ['']) {
      const w = widthOf(word);
      if (used + w <= room()) {
        line += word;
        used += w;
        continue;
      }
      const bare = word.replace(/^ +/, '');
      if (widthOf(bare) <= room()) {
        if (used > 0) flush();
        line = bare;
        used = widthOf(bare);
        continue;
      }
      // Wider than a whole line ("bs,li,th,x,fb", a URL): it fills the line it starts on, broken
      // after commas where it can, else between graphemes.
      let first = true;
      for (const piece of bare.match(/[^,]*,|[^,]+/g) ?? [bare]) {
        const text = first && used > 0 ? ` ${piece}` : piece;
        first = false;
        if (used + widthOf(text) <= room()) {
          line += text;
          used += widthOf(text);
          continue;
        }
        if (widthOf(piece) <= room()) {
          if (used > 0) flush();
          line = piece;
          used = widthOf(piece);
          continue;
        }
        for (const g of segments(text)) {
          const gw = widthOf(g);
          if (used + gw > room() && used > 0) flush();
          if (used === 0 && g === ' ') continue;
          line += g;
          used += gw;
        }
      }
    }
    flush();
  }
  return lines;
}

/**
 * At most `max` lines of the wrapped text; when more were needed, the last one ends in "…".
 */
export function wrapLines(text: string, width: number, max: number, options: WrapOptions = {}): string[] {
  const widthOf = options.widthOf ?? displayWidth;
  const lines = wrapText(text, width, options);
  if (lines.length <= max) return lines;
  const kept = lines.slice(0, max);
  let last = kept[max - 1]!;
  while (last && widthOf(last) + 1 > width) last = segments(last).slice(0, -1).join('');
  kept[max - 1] = `${last.replace(/ +$/, '')}…`;
  return kept;
}

/** Prose that ends in a command to copy: "…: socialpub results list --post post_1". */
const TRAILING_COMMAND = /^(.*?:) ((?:socialpub|\$) .*)$/;

/**
 * A line that is a command to copy (indented, starting with `socialpub`, `printf` or `$`, bold or
 * not: our own SGR codes may lead it on a terminal): never broken.
 */
const COMMAND_LINE = /^\s+(?:\u001b\[[0-9;]*m)*(?:\$ |socialpub |printf |[A-Z_]+=\S* socialpub )/;

/**
 * Prose for a terminal (messages, hints, narration) wrapped to `width`: each line keeps its
 * indentation and continues two columns further in; commands to copy stay whole. Text without a
 * width (a pipe, a file) is left as it is.
 */
export function wrapProse(text: string, width: number | undefined): string {
  if (!width || width <= 0) return text;
  return text
    .split('\n')
    .map((line) => {
      if (COMMAND_LINE.test(line) || displayWidth(line) <= width) return line;
      const lead = /^\s*/.exec(line)![0];
      // "all results of this post: socialpub results list --post …": the command goes whole on
      // its own line under the prose, rather than broken where a copy would lose its end; wider
      // than the terminal, it is left for the terminal to fold, which a copy joins again.
      const command = TRAILING_COMMAND.exec(line.slice(lead.length));
      if (command) {
        return `${wrapProse(lead + command[1]!, width)}\n${lead}  ${command[2]!}`;
      }
      return wrapText(line.slice(lead.length), width - lead.length, { indent: '  ' })
        .map((l) => lead + l)
        .join('\n');
    })
    .join('\n');
}

/** One line: the text flattened and cut to `width` columns with an ellipsis (queue rows, summaries). */
export function oneLine(text: string, width: number): string {
  return cutToWidth(text.replace(/\s+/g, ' ').trim(), Math.max(1, width));
}

/** "  key   value": a key, then two spaces or more, then the value. */
const RECORD_LINE = /^(\s*\S+(?: \S+)* {2,})(\S.*)$/;

/**
 * A record on a terminal ("  error message     The connected account's…"): a value wider than
 * the line wraps by words under its own column. A path that cannot fit there is broken under the
 * column too, after a "/" where it can, rather than left for the terminal to break at column 0; a
 * URL (or a link) stays whole on a line of its own, as a long id does, to be copied: a terminal
 * folds a long line but copies it as one, while a URL in pieces no longer copies. A value whose
 * column leaves less than 20 columns is left whole. The lines of a value that spans several (a JSON context
 * under its label) wrap at their own indentation, continuing two columns further in, so that no
 * line runs back to column 0 under the labels.
 */
export function wrapRecord(text: string, width: number | undefined): string {
  if (!width || width <= 0) return text;
  // The value column of the record above: lines indented at least this far continue its value.
  let column = Infinity;
  return text
    .split('\n')
    .map((line) => {
      const lead = /^ */.exec(line)![0].length;
      if (lead >= column) return displayWidth(line) <= width ? line : wrapBlockLine(line, lead, column, width);
      const m = RECORD_LINE.exec(line);
      column = m ? displayWidth(m[1]!) : Infinity;
      if (!m || displayWidth(line) <= width) return line;
      const room = width - column;
      const value = room < 20 ? undefined : wrapValue(m[2]!, room);
      if (!value) return line;
      return value.map((l, i) => (i === 0 ? m[1]! : ' '.repeat(column)) + l).join('\n');
    })
    .join('\n');
}

/** A word that is one OSC 8 link: its target and its text. */
const LINK_WORD = /^\u001b\]8;;([^\u0007\u001b]*)\u0007([^\u001b]*)\u001b\]8;;\u0007$/;

/** A URL: a scheme, "://" and the rest, with no colour in it. */
const URL_WORD = /^[a-z][a-z0-9+.-]*:\/\/[^\s\u001b]+$/i;

/**
 * A record's value as lines of `room` columns: by words, a path too wide for a line broken
 * across lines, a URL or link too wide kept whole on a line of its own. Undefined when such a
 * word is neither (an id) or carries colour: the value is left whole.
 */
function wrapValue(value: string, room: number): string[] | undefined {
  const words = value.split(' ');
  if (words.every((word) => displayWidth(word) <= room)) return wrapText(value, room);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const fits = displayWidth(word) <= room;
    if (line && displayWidth(`${line} ${word}`) <= room) line += ` ${word}`;
    else if (fits) {
      if (line) lines.push(line);
      line = word;
    } else if (LINK_WORD.test(word) || URL_WORD.test(word)) {
      // The spaces before it (two, between a row's cells) would end the line above.
      if (line.trim()) lines.push(line.trimEnd());
      lines.push(word);
      line = '';
    } else {
      // Only a path is broken; a long id or key stays whole, to be copied.
      if (stripEscapes(word) !== word || !word.includes('/')) return undefined;
      // It starts on the line it follows when a fair part of it fits there.
      const left = line ? room - displayWidth(line) - 1 : 0;
      const pieces = breakWord(word, left >= 10 ? left : room, room);
      if (line && left >= 10) pieces[0] = `${line} ${pieces[0]!}`;
      else if (line) lines.push(line);
      lines.push(...pieces.slice(0, -1));
      line = pieces.at(-1)!;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * "label URL" as one line when it fits `width`; else the label, and under it at `indent` the URL
 * whole (a terminal folds it and copies it as one line; in pieces it would not copy). `label`
 * may carry colour; `shown` is the URL as printed (a link to it, say).
 */
export function labelledUrl(label: string, url: string, width: number, indent: string, shown = url): string[] {
  return displayWidth(stripEscapes(`${label} ${url}`)) <= width ? [`${label} ${shown}`] : [label, indent + shown];
}

/** A word as pieces, the first at most `first` columns, the others `room`: cut after a "/" in the second half of a piece, else where it is full. */
function breakWord(word: string, first: number, room: number): string[] {
  const pieces: string[] = [];
  let piece: string[] = [];
  let used = 0;
  for (const g of segments(word)) {
    const gw = displayWidth(g);
    const max = pieces.length === 0 ? first : room;
    if (used + gw > max && piece.length > 0) {
      const slash = piece.lastIndexOf('/');
      const cut = slash >= piece.length / 2 ? slash + 1 : piece.length;
      pieces.push(piece.slice(0, cut).join(''));
      piece = piece.slice(cut);
      used = displayWidth(piece.join(''));
    }
    piece.push(g);
    used += gw;
  }
  pieces.push(piece.join(''));
  return pieces;
}

/**
 * A line of a multi-line value, indented `lead` spaces under a record's value `column`, wrapped
 * by words: the rest continues two columns further in, or further out when the line is deep in
 * the value (so at least 20 columns are left), never left of the value column.
 */
function wrapBlockLine(line: string, lead: number, column: number, width: number): string {
  const hang = Math.max(column, Math.min(lead + 2, width - 20));
  if (width - hang < 20 || lead >= width) return line;
  const text = line.slice(lead);
  const first = wrapText(text, width - lead)[0]!;
  const rest = text.slice(first.length).replace(/^ +/, '');
  if (!rest) return line;
  return [' '.repeat(lead) + first, ...wrapText(rest, width - hang).map((l) => ' '.repeat(hang) + l)].join('\n');
}

/** A synopsis's groups ("[--input FILE]", "<path>", "[-f key=value]..."): split at spaces outside brackets. */
function synopsisGroups(text: string): string[] {
  const groups: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '[' || ch === '<') depth++;
    else if ((ch === ']' || ch === '>') && depth > 0) depth--;
    if (ch !== ' ' || depth > 0) {
      current += ch;
    } else if (current) {
      groups.push(current);
      current = '';
    }
  }
  if (current) groups.push(current);
  return groups;
}

/**
 * Groups on lines of at most `width` columns (`first` for the first line, which may then hold
 * none); a group wider than that has a line of its own.
 */
function packGroups(groups: readonly string[], width: number, first = width): string[] {
  const lines: string[] = [];
  for (const group of groups) {
    const last = lines.length - 1;
    const room = last === 0 ? first : width;
    if (last >= 0 && displayWidth(lines[last] ? `${lines[last]} ${group}` : group) <= room) lines[last] = lines[last] ? `${lines[last]} ${group}` : group;
    else if (lines.length === 0 && displayWidth(group) > first) lines.push('', group);
    else lines.push(group);
  }
  return lines;
}

/** "Usage: socialpub api " and the synopsis after it. */
const USAGE = /^(Usage: (?:[^\s[<-]\S* )+)(.+)$/;

/**
 * Help for a narrow terminal: records wrap under their own column, other lines by words at their
 * own indentation (help breaks its paragraphs itself), and an example to copy (a command, the
 * lines continuing it after a backslash, or a JSON body: one word) stays whole.
 */
export function wrapHelp(text: string, width: number): string {
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      // The line after one ending in a backslash continues a command: broken, it would not run.
      if (displayWidth(line) <= width || /^\s*\S+$/.test(line) || lines[i - 1]?.endsWith(' \\')) return line;
      const usage = USAGE.exec(line);
      // A usage line goes on under its first argument, as a synopsis does, broken between its
      // groups: "[--profile" and "NAME]" on two lines read as two options. When the command's
      // words take more than half the line (a 40-column terminal), it goes on under "socialpub".
      if (usage) {
        const hang = displayWidth(usage[1]!) <= width / 2 ? usage[1]!.length : 'Usage: '.length;
        return packGroups(synopsisGroups(usage[2]!), width - hang, width - usage[1]!.length)
          .map((l, j) => (j === 0 ? usage[1]!.trimEnd() + (l ? ` ${l}` : '') : ' '.repeat(hang) + l))
          .join('\n');
      }
      const record = wrapRecord(line, width);
      if (record !== line || COMMAND_LINE.test(line)) return record;
      const lead = /^\s*/.exec(line)![0];
      return wrapText(line.slice(lead.length), width - lead.length)
        .map((l) => lead + l)
        .join('\n');
    })
    .join('\n');
}
