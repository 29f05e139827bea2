// Width as a terminal shows it, and cutting that never splits what a reader sees as one character.
// string-width (already bundled with ora) knows East Asian widths, emoji with ZWJ and skin tones,
// and gives escape sequences (colour, OSC 8 links) no width; we only add grapheme-safe cutting.
// It is loaded on the first text that is not plain ASCII: its set-up (a segmenter and emoji
// tables) costs more start-up time than most commands spend on everything else.
import type stringWidthModule from 'string-width';

let stringWidth: typeof stringWidthModule | undefined;

/** Colour (CSI) and OSC (hyperlink) sequences: zero width, kept whole when cutting. */
const ESCAPE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/**
 * The only sequences a cell may carry: colour (SGR) and OSC 8 links. Anything else in data (a
 * window title, a clipboard write (OSC 52), cursor moves) loses its ESC and prints as text.
 */
const CELL_ESCAPE = /\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*;[^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

let graphemes: Intl.Segmenter | undefined;

/**
 * Intl.Segmenter slows down far more than linearly on long strings (100,000 characters of emoji
 * or accented letters take from seconds to over a minute), and a server may send texts that long:
 * a long text is segmented a piece at a time, each starting on a cluster boundary, its last
 * cluster (which may go on past the piece) left for the next.
 */
const PIECE = 2048;

/** The grapheme clusters of the text, in order. */
export function* graphemeClusters(text: string): Generator<string> {
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (let start = 0; start < text.length; ) {
    const piece = [...graphemes.segment(text.slice(start, start + PIECE))];
    const last = start + PIECE >= text.length || piece.length === 1 ? piece.length : piece.length - 1;
    for (let i = 0; i < last; i++) yield piece[i]!.segment;
    start += piece.slice(0, last).reduce((n, s) => n + s.segment.length, 0);
  }
}

/** Columns the text takes on a terminal (wide characters and emoji count 2, escapes 0). */
export function displayWidth(text: string): number {
  // Printable ASCII, Latin letters and the program's own punctuation (· – — … → ✓ ✗) are one
  // column a character: no need for the tables (loading them costs ~14 ms of a short command).
  if (/^[ -~\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2192\u2713\u2717]*$/.test(text)) return text.length;
  // The bundle (CommonJS) inlines string-width here, run on first call; vitest provides require too.
  stringWidth ??= (require('string-width') as { default: typeof stringWidthModule }).default;
  if (text.length <= SHORT) return shortWidth(text);
  if (text.length <= PIECE) return stringWidth(text);
  // Cluster by cluster: string-width segments what it is given, and would take the long way.
  let width = 0;
  for (const cluster of graphemeClusters(stripEscapes(text))) width += shortWidth(cluster);
  return width;
}

/** Up to this length a text is likely one cluster or a short word: its width is remembered. */
const SHORT = 16;
const MAX_REMEMBERED = 4096;
const shortWidths = new Map<string, number>();

/**
 * string-width of a short text, remembered: it costs ~50 µs a call, and a long text (measured a
 * cluster at a time, or wrapped between clusters) repeats few distinct ones. 100,000 characters of
 * emoji and accents took 7 s of `posts view` on a terminal, nearly all of it here.
 */
function shortWidth(text: string): number {
  let width = shortWidths.get(text);
  if (width === undefined) {
    width = stringWidth!(text);
    if (shortWidths.size < MAX_REMEMBERED) shortWidths.set(text, width);
  }
  return width;
}

/** Removes colour and link sequences (the visible text only). */
export function stripEscapes(text: string): string {
  return text.replace(ESCAPE, '');
}

/**
 * One line for a table cell: newlines and tabs become spaces, and other control characters
 * (which a terminal would act on) are dropped, except colour and links (CELL_ESCAPE).
 */
export function flattenCell(text: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const m of text.matchAll(CELL_ESCAPE)) {
    parts.push(flattenPlain(text.slice(last, m.index)), m[0]);
    last = m.index + m[0].length;
  }
  parts.push(flattenPlain(text.slice(last)));
  return parts.join('');
}

function flattenPlain(text: string): string {
  return text.replace(/\r\n|[\r\n\t\v\f]/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

/**
 * A control character made visible (terminal-safe.ts: ESC shows as `\u001b`, a line break in a
 * one-line value as `\n`) reads as one character: cut, "\u00" or "\" names none. Such an escape
 * is one piece, to cut or wrap at; the rest is grapheme clusters.
 */
const SHOWN_CONTROL = /(\\u[0-9a-f]{4}|\\n)/;

export function* cuttable(plain: string): Generator<string> {
  if (!plain.includes('\\')) return yield* graphemeClusters(plain);
  for (const [i, part] of plain.split(SHOWN_CONTROL).entries()) {
    if (i % 2 === 1) yield part;
    else yield* graphemeClusters(part);
  }
}

/**
 * The text cut to at most `max` columns, ending in `…` when something was cut. Cuts only between
 * grapheme clusters; escape sequences after the cut are kept (without text) so colours are reset
 * and links closed.
 */
export function cutToWidth(text: string, max: number, ellipsis = '…'): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return keepEscapes(text);
  const room = max - displayWidth(ellipsis);
  if (room < 0) return keepEscapes(text);
  let out = '';
  let used = 0;
  let last = 0;
  let cut = false;
  const takeText = (plain: string) => {
    if (cut) return;
    for (const segment of cuttable(plain)) {
      const w = displayWidth(segment);
      if (used + w > room) {
        cut = true;
        // "one two…" reads better than "one two …".
        out = out.replace(/ +$/, '') + ellipsis;
        return;
      }
      out += segment;
      used += w;
    }
  };
  for (const m of text.matchAll(ESCAPE)) {
    takeText(text.slice(last, m.index));
    out += m[0];
    last = m.index + m[0].length;
  }
  takeText(text.slice(last));
  // The whole text was wider than max, so some grapheme did not fit and the ellipsis is there.
  return out;
}

function keepEscapes(text: string): string {
  return (text.match(ESCAPE) ?? []).join('');
}

/** Pads with spaces to `width` columns (never cuts). */
export function padToWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}
