// The short summary shown before "Send it?" when a value came from a prompt: what goes where, how
// each text counts against its platform's limit, the media as their content says, and when (in the
// user's zone and UTC). The exact requests stay with --dry-run; a confirmation is for people.
import { basename } from 'node:path';
import { isPlatform } from '../../../wire/platforms.js';
import { judgeText, unitWord } from '../../../wire/text-limits.js';
import { formatBytes } from '../../../wire/platforms.js';
import type { MediaSource } from '../../../posts/draft.js';
import type { MediaFacts } from '../../../posts/media-facts.js';
import { formatLocal, formatRelative } from '../../../output/time.js';
import type { Composed } from './compose.js';
import { cutToWidth, displayWidth, flattenCell, padToWidth } from '../../../output/width.js';
import { wrapText } from '../../../output/wrap.js';
import { visible } from '../../../output/terminal-safe.js';

/** The label column: two spaces, then the label padded to this. */
export const LABEL = 13;

/**
 * "Hello world…" on one line, quoted, in at most `max` columns as the terminal shows them. The
 * summary is written straight to the terminal: control characters (escape sequences, bidi
 * overrides) in a text or a draft's title from the service are shown, not obeyed.
 */
function preview(text: string, max: number): string {
  const flat = flattenCell(visible(text)).replace(/\s+/g, ' ').trim();
  return `"${cutToWidth(flat, Math.max(8, max - 2))}"`;
}

/** "PNG image (image/png), 2 KB" for a file; for a URL, what its name says (the service checks it). */
function describeMedia(m: MediaSource, facts: MediaFacts | undefined): string {
  if (m.isUrl) return facts?.mimeType ? `${facts.mimeType} (by its name; the service checks it)` : 'type unknown (the service checks it)';
  const what = (facts?.content ?? 'a file').replace(/^an? /, '');
  const kind = facts?.mimeType ? `${what.charAt(0).toUpperCase()}${what.slice(1)} (${facts.mimeType})` : what;
  return facts?.sizeBytes !== undefined ? `${kind}, ${formatBytes(facts.sizeBytes)}` : kind;
}

/** "2026-06-02 09:30 CEST (Europe/Paris) · 07:30 UTC · in 21 hours". */
function describeWhen(iso: string, zone: string, now: number): string {
  const t = Date.parse(iso);
  const local = formatLocal(t, zone);
  const named = local.endsWith(` ${zone}`) ? local : `${local} (${zone})`;
  const utc = zone === 'UTC' || local.endsWith(' UTC') ? '' : ` · ${new Date(t).toISOString().slice(11, 16)} UTC`;
  return `${named}${utc} · ${formatRelative(t, now)}`;
}

/** What a draft being scheduled holds, as the service returned it. */
export interface ExistingPost {
  payloads: Record<string, unknown>;
  title?: string | null;
  /** A scheduled post is moved: its time now is shown above the new one. */
  status?: string;
  scheduledAt?: string | null;
}

/** The summary in `width` columns: long values are cut (a text shows its start); only "when" wraps. */
export function confirmSummary(c: Composed, now: number, width = 80, existing?: ExistingPost): string {
  const rows: Array<[string, string]> = [];
  const room = Math.max(20, width - LABEL);
  const pad = (cells: string[], widths: number[]) => cells.map((s, i) => (i < cells.length - 1 ? padToWidth(s, widths[i]!) : s)).join('  ');
  const moved = existing?.status === 'scheduled' && existing.scheduledAt ? existing.scheduledAt : undefined;
  if (c.postId !== undefined && !c.draft) rows.push(['post', `${c.postId} (${moved ? 'scheduled' : 'a draft'}, as it is)`]);
  if (existing) {
    const entries = Object.entries(existing.payloads);
    if (entries.length) rows.push(['platforms', entries.map(([p]) => p).join(', ')]);
    const nameWidth = Math.max(0, ...entries.map(([p]) => p.length));
    entries.forEach(([p, payload], i) => {
      const text = (payload as { text?: unknown } | null)?.text;
      if (typeof text === 'string') rows.push([i === 0 ? 'text' : '', pad([p, preview(text, room - nameWidth - 2)], [nameWidth])]);
    });
    if (typeof existing.title === 'string') rows.push(['title', preview(existing.title, room)]);
  }
  const platforms = c.draft?.platforms ?? [];
  if (platforms.length) rows.push(['platforms', platforms.map((p) => p.platform).join(', ')]);
  const nameWidth = Math.max(0, ...platforms.map((p) => p.platform.length));
  const counts = platforms.map((p) => (p.text !== undefined && isPlatform(p.platform) ? judgeText(p.platform, p.text) : undefined));
  const countWidth = Math.max(0, ...counts.map((v) => (v ? `${v.count.length} of ${v.limit} characters`.length : 0)));
  platforms.forEach((p, i) => {
    const v = counts[i];
    if (p.text === undefined || !v || !isPlatform(p.platform)) return;
    // The count alone: it fits (validation passed), and the explanation would double the line.
    const count = `${v.count.length} of ${v.limit} ${unitWord(p.platform, v.limit)}`;
    const left = room - nameWidth - countWidth - 4;
    // Beside the count when it fits there whole, or 20 columns of it do.
    if (left >= Math.min(20, displayWidth(preview(p.text, Infinity)))) rows.push([i === 0 ? 'text' : '', pad([p.platform, count, preview(p.text, left)], [nameWidth, countWidth])]);
    else {
      // Narrow (60 columns or less): the text's start on a line of its own, rather than cut to a word.
      rows.push([i === 0 ? 'text' : '', pad([p.platform, count.replace(/ characters?$/, ' chars')], [nameWidth])]);
      rows.push(['', `  ${preview(p.text, room - 2)}`]);
    }
  });
  const seen = new Map<string, MediaSource>();
  for (const p of platforms) for (const m of p.media) if (!seen.has(m.source)) seen.set(m.source, m);
  const names = [...seen.values()].map((m) => visible(m.isUrl ? m.source : basename(m.path ?? m.source)));
  const fileWidth = Math.max(0, ...names.map((n) => displayWidth(n)));
  [...seen.values()].forEach((m, i) => {
    rows.push([i === 0 ? 'media' : '', pad([names[i]!, describeMedia(m, c.facts.get(m))], [fileWidth])]);
    if (m.alt !== undefined) rows.push(['', pad(['', `alt ${preview(m.alt, room - fileWidth - 6)}`], [fileWidth])]);
  });
  if (c.draft?.title !== undefined) rows.push(['title', preview(c.draft.title, room)]);
  // What goes beyond the text: each thread's parts, the first comment, each platform's settings.
  const threads = platforms.filter((p) => p.thread?.length);
  threads.forEach((p, i) => {
    // Media of a later part are named with its number: "part 2: chart.png".
    const withMedia = p.thread!.flatMap((t, j) => (t.media.length ? [`part ${j + 2}: ${t.media.map((m) => basename(m.source)).join(', ')}`] : []));
    rows.push([i === 0 ? 'thread' : '', pad([p.platform, `${p.thread!.length + 1} parts${withMedia.length ? ` · ${visible(withMedia.join('; '))}` : ''}`], [nameWidth])]);
  });
  const comment = platforms.find((p) => p.firstComment !== undefined)?.firstComment;
  if (comment !== undefined) rows.push(['comment', preview(comment, room)]);
  const settings = platforms.flatMap((p) => Object.entries(p.options ?? {}).map(([k, v]) => `${p.platform}.${k}=${Array.isArray(v) ? v.join(',') : String(v)}`));
  if (settings.length) rows.push(['settings', visible(settings.join(', '))]);
  if (moved) rows.push(['now', describeWhen(moved, c.zone, now)]);
  rows.push([moved ? 'moves to' : 'when', c.at ? describeWhen(c.at.iso, c.zone, now) : 'a draft: nothing is published until you schedule it']);
  // A time is a sentence, wrapped by words under its value; the other values are cut.
  const value = (k: string, v: string) => (['when', 'now', 'moves to'].includes(k) ? wrapText(v, room).join(`\n${' '.repeat(LABEL)}`) : cutToWidth(v, room));
  return rows.map(([k, v]) => `  ${k.padEnd(LABEL - 2)}${value(k, v)}`).join('\n');
}
