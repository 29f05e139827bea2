// HTML for a preview and the page around it, shared by the sandbox's pages and the local file
// `posts preview --web` writes. Everything a post holds is the service's text, so hostile: every
// string goes through `esc`, attributes included, is isolated in `<bdi>` in text (see `html`), and
// media are shown as their URL, never loaded (a page that fetched them would reach outside the machine).
import { countLine, type FoldedText, type MediaPreview, type PlatformPreview, type PostPreview, type TextLimit } from './model.js';
import { PAGE_CSS } from './style.js';
import { asEscape, hiddenCharacters } from '../hidden-characters.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value as HTML: the five special characters escaped. */
export function esc(value: unknown): string {
  return shownControls(String(value ?? '')).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * C0 control characters (but tab and line breaks) and the hidden characters (hidden-characters.ts)
 * as `\uXXXX`, as the command line shows them in a terminal: a browser draws control characters as
 * empty boxes (or nothing), which hides what the text holds, and a symbol such as ␇ needs a font few
 * machines have; the bidirectional controls reorder what is read ("\u202Eevil" reads "live"), though
 * `<bdi>` keeps them from our own labels. Right-to-left letters themselves are shown as written.
 */
const SHOWN_AS_ESCAPES = hiddenCharacters('\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f');
function shownControls(text: string): string {
  return text.replace(SHOWN_AS_ESCAPES, asEscape);
}

/** An object as `key value` pairs (nested keys dotted), for a person rather than a parser; nothing for an empty one. */
export function fields(value: unknown): Raw {
  const pairs: [string, string][] = [];
  const scalar = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) walk(x, key ? `${key}.${k}` : k);
    else if (Array.isArray(v) && v.some((x) => typeof x === 'object' && x !== null)) v.forEach((x, i) => walk(x, `${key}.${i}`));
    else pairs.push([key, Array.isArray(v) ? v.map(scalar).join(', ') : scalar(v)]);
  };
  walk(value, '');
  return html`${pairs.length ? html`<span class="fields">${pairs.map(([k, v]) => html`<span class="field"><span class="label">${k}</span> ${v}</span> `)}</span>` : ''}`;
}

/**
 * A tagged template whose values are escaped (a value made by `raw` is kept as it is). A string
 * in text is also isolated in `<bdi>`: a right-to-left handle or text, or one holding a
 * directional control (U+202E), then cannot reorder our labels and punctuation around it. In an
 * attribute, or in an element that holds text only (`<option>`, `<title>`, `<textarea>`), it is
 * escaped alone. Where a value lands is read from the template's own markup: escaped values hold
 * no `<` or `>`, and a `Raw` value is whole elements.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!;
  let at = placeAfter(strings[0]!, { inTag: false, tag: '' });
  values.forEach((v, i) => {
    const isolate = !at.inTag && !TEXT_ONLY.has(at.tag);
    out += (Array.isArray(v) ? v.map((x) => piece(x, isolate)).join('') : piece(v, isolate)) + strings[i + 1]!;
    at = placeAfter(strings[i + 1]!, at);
  });
  return new Raw(out);
}

/** Elements whose content is text alone: markup inside them would be dropped or shown. */
const TEXT_ONLY = new Set(['option', 'title', 'textarea']);

interface Place {
  /** Inside a tag (between `<` and `>`): an attribute's value. */
  inTag: boolean;
  /** The last tag opened or closed ('/td' for a closing tag). */
  tag: string;
}

/** Where the text after `markup` is, given where `markup` started. */
function placeAfter(markup: string, before: Place): Place {
  const lt = markup.lastIndexOf('<');
  const gt = markup.lastIndexOf('>');
  if (lt < 0 && gt < 0) return before;
  if (lt > gt) return { inTag: true, tag: tagName(markup.slice(lt + 1)) };
  const opened = markup.lastIndexOf('<', gt);
  return { inTag: false, tag: opened < 0 ? before.tag : tagName(markup.slice(opened + 1)) };
}

const tagName = (from: string) => /^\/?[a-z0-9]*/i.exec(from)![0].toLowerCase();

export class Raw {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

function piece(v: unknown, isolate: boolean): string {
  if (v instanceof Raw) return v.text;
  if (v === undefined || v === null || v === false || v === '') return '';
  return isolate && typeof v === 'string' ? `<bdi>${esc(v)}</bdi>` : esc(v);
}

export interface PageOptions {
  title: string;
  body: Raw;
  /** Scripts served by the same origin (none in a local file). */
  script?: string;
  /** Navigation links, shown on top. */
  nav?: Raw;
}

export function page(o: PageOptions): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><link rel="icon" href="data:,"><title>${esc(o.title)}</title><style>${PAGE_CSS}</style></head>
<body>${o.nav ? `<header class="top">${o.nav.text}</header>` : ''}<main id="main">${o.body.text}</main>${o.script ? `<script src="${esc(o.script)}" defer></script>` : ''}</body></html>`;
}

function folded(t: FoldedText): Raw {
  return html`<p class="text"><span class="visible">${t.visible}</span>${t.hidden ? html`<span class="more">… more</span><span class="hidden-part" title="hidden behind more">${t.hidden}</span>` : ''}</p>`;
}

function mediaList(media: MediaPreview[]): Raw {
  if (!media.length) return html``;
  return html`<ul class="media">${media.map(
    (m, i) => html`<li><span class="kind">${m.type ?? 'media'} ${i + 1}</span> <code class="url">${m.url}</code><br>${m.alt ? html`<span class="alt">alt: ${m.alt}</span>` : html`<span class="warn">no alt text</span>`}</li>`,
  )}</ul>`;
}

/** The platform's own count against its limit; over it, marked as the problem it is. */
function counted(limit: TextLimit | null, text: FoldedText): Raw {
  const { text: count, over } = countLine(limit, text);
  return over ? html`<strong class="bad">${count}</strong>` : html`${count}`;
}

export function platformSection(p: PlatformPreview): Raw {
  const fold = p.fold.chars ? `folds after ~${p.fold.chars} characters${p.fold.lines ? ` or ${p.fold.lines} lines` : ''}` : 'no fold: the whole text shows';
  return html`<section class="preview card" aria-label="${p.platform} preview">
<h3>${p.platform} <small>${counted(p.limit, p.text)} · ${fold}</small></h3>
${p.title ? html`<p class="title"><strong>${p.title}</strong></p>` : ''}
${p.thread.length ? html`<ol class="thread">${p.thread.map((t) => html`<li value="${t.part}"><span class="part">${t.part}/${p.thread.length}</span> <small>${counted(t.limit, t.text)}</small>${folded(t.text)}${mediaList(t.media)}</li>`)}</ol>` : html`${folded(p.text)}${mediaList(p.media)}`}
${p.crop ? html`<p class="crop">feed crop: ${p.crop}</p>` : ''}
${p.firstComment ? html`<p class="comment"><span class="label">first comment</span> ${p.firstComment}</p>` : ''}
${p.options ? html`<p class="options"><span class="label">options</span> ${fields(p.options)}</p>` : ''}
${p.accounts.length ? html`<p class="accounts"><span class="label">accounts</span> ${p.accounts.join(', ')}</p>` : ''}
${p.notes.map((n) => html`<p class="warn">${n}</p>`)}
${p.fold.source ? html`<p class="source">source of the fold and crop: ${p.fold.source}</p>` : ''}
</section>`;
}

export function previewSections(preview: PostPreview): Raw {
  return html`<div class="previews">${preview.platforms.map(platformSection)}</div>`;
}

/** A whole page of one post's previews (the local file of `posts preview --web`). */
export function previewPage(preview: PostPreview): string {
  const heading = preview.title ?? preview.id ?? 'post preview';
  return page({
    title: `Preview: ${heading}`,
    body: html`<h1>Preview${preview.id ? html` of <code>${preview.id}</code>` : ''}</h1>${preview.title ? html`<p>${preview.title}</p>` : ''}${previewSections(preview)}`,
  });
}
