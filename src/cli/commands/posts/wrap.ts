// Word wrapping for the post views (view, queue, the edit confirmation): a line longer than the
// width breaks at spaces; a word wider than the line (a URL, CJK text without spaces) breaks
// between grapheme clusters, so nothing runs past the terminal's edge.
import { cutToWidth, displayWidth } from '../../../output/width.js';

let graphemes: Intl.Segmenter | undefined;

/** The text (one paragraph: no newlines expected) as lines of at most `width` columns; '' gives ['']. */
export function wrapText(text: string, width: number): string[] {
  const max = Math.max(8, width);
  if (displayWidth(text) <= max) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/(?<= )/)) {
    if (displayWidth(line + word.trimEnd()) <= max) {
      line += word;
      continue;
    }
    if (line.trim()) lines.push(line.trimEnd());
    line = '';
    let rest = word;
    while (displayWidth(rest.trimEnd()) > max) {
      const head = hardCut(rest, max);
      lines.push(head);
      rest = rest.slice(head.length);
    }
    line = rest;
  }
  if (line.trim() || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

function hardCut(text: string, max: number): string {
  let out = '';
  for (const { segment } of (graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' })).segment(text)) {
    if (displayWidth(out + segment) > max) break;
    out += segment;
  }
  return out || [...text][0]!;
}

/** One line: the text flattened and cut to `width` columns with an ellipsis. */
export function oneLine(text: string, width: number): string {
  return cutToWidth(text.replace(/\s+/g, ' ').trim(), Math.max(1, width));
}
