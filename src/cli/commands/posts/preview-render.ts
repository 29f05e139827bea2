// The terminal view of a preview: per platform, what shows above the fold, then what it hides
// (dimmed), thread parts numbered, media with alt text and the feed's crop, the first comment.
import type { Colors } from '../../../output/colors.js';
import { accountLabel } from '../../../accounts/label.js';
import type { SocialAccount } from '../../../wire/account-schemas.js';
import { labelledUrl, wrapText } from '../../../output/wrap.js';
import { visibleLine } from '../../../output/terminal-safe.js';
import { displayWidth } from '../../../output/width.js';
import { countLine, type FoldedText, type MediaPreview, type PostPreview, type TextLimit } from '../../../wire/preview/model.js';

interface RenderOptions {
  colors: Colors;
  width: number;
  /** The workspace's accounts by id, to name targets as `platform:@handle`; one not there is shown by its id. */
  accounts?: ReadonlyMap<string, SocialAccount>;
}

export function renderPreview(p: PostPreview, o: RenderOptions): string {
  const c = o.colors;
  const lines: string[] = [];
  if (p.id || p.title) lines.push(c.bold([p.id, p.title].filter(Boolean).join(' · ')));
  if (!p.platforms.length) lines.push('(no platforms)');
  const wrap = (text: string, indent = '  ') => wrapText(text, Math.max(20, o.width - indent.length)).map((l) => indent + l);
  const folded = (t: FoldedText, indent = '  ') => {
    const out = wrap(t.visible || '(no text)', indent);
    if (t.hidden) {
      out.push(indent + c.dim(`… more — hidden (${Array.from(t.hidden).length} characters):`));
      out.push(...wrap(t.hidden, indent).map((l) => c.dim(l)));
    }
    return out;
  };
  // "label value" wrapped to the width, later lines under the value's start: an alt text or a
  // crop note longer than the line would otherwise be wrapped by the terminal at column 0.
  const field = (label: string, value: string, indent = '  ', style: (s: string) => string = c.dim) =>
    wrapText(`${label} ${value}`, Math.max(20, o.width - indent.length), { indent: '  ' }).map((l, i) => indent + (i === 0 ? style(label) + l.slice(label.length) : l));
  const media = (m: MediaPreview[], indent = '  ') =>
    m.flatMap((item, i) => [...labelledUrl(`${indent}${c.dim(`[${item.type ?? 'media'} ${i + 1}]`)}`, item.url, o.width, `${indent}  `), ...(item.alt ? field('alt:', item.alt, `${indent}  `, (s) => s) : [`${indent}  ${c.yellow('no alt text')}`])]);
  // The platform's own count against its limit; over it, said in red (and in a note below).
  const counted = (limit: TextLimit | null, text: FoldedText) => {
    const { text: plain, over } = countLine(limit, text);
    return { plain, shown: over ? c.red(plain) : c.dim(plain) };
  };
  // As accounts list and posts view name them; an account the service did not list keeps its id.
  const named = (id: string) => {
    const a = o.accounts?.get(id);
    return a ? visibleLine(accountLabel(a)) : id;
  };
  for (const pl of p.platforms) {
    lines.push('');
    const fold = pl.fold.chars ? `folds after ~${pl.fold.chars} characters${pl.fold.lines ? ` or ${pl.fold.lines} lines` : ''}` : 'no fold';
    // The fold goes on a line of its own when the header would not fit the width.
    const count = counted(pl.limit, pl.text);
    const head = `${c.bold(pl.platform)} ${count.shown}`;
    lines.push(...(displayWidth(`${pl.platform} ${count.plain} · ${fold}`) <= o.width ? [`${head} ${c.dim(`· ${fold}`)}`] : [head, `  ${c.dim(fold)}`]));
    if (pl.title) lines.push(...field('title:', pl.title, '  ', (s) => s));
    if (pl.thread.length) {
      for (const t of pl.thread) {
        lines.push(`  ${c.bold(`${t.part}/${pl.thread.length}`)} ${counted(t.limit, t.text).shown}`);
        lines.push(...folded(t.text, '    '), ...media(t.media, '    '));
      }
    } else lines.push(...folded(pl.text), ...media(pl.media));
    if (pl.crop) lines.push(...field('feed crop:', pl.crop));
    if (pl.firstComment) lines.push(`  ${c.dim('first comment:')}`, ...wrap(pl.firstComment, '    '));
    if (pl.options) lines.push(...field('options:', JSON.stringify(pl.options)));
    if (pl.accounts.length) lines.push(...field('accounts:', pl.accounts.map(named).join(', ')));
    for (const n of pl.notes) lines.push(...wrap(n, '    ').map((l, i) => (i === 0 ? `  ${c.yellow('!')} ${l.slice(4)}` : l)));
  }
  return lines.join('\n');
}
