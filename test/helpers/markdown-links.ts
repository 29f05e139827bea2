// The relative links of a Markdown document that the package ships, and whether each resolves to a
// file of the package (or to a heading of the document, for `#anchor`). Code (fenced blocks and
// inline spans) holds no links. Anchors follow GitHub's rule: the heading lower-cased, punctuation
// but `-` and `_` dropped, spaces turned into `-`, and `-1`, `-2`… for repeats.
import { posix } from 'node:path';

/** Markdown with its code blocks and inline code spans blanked out. */
function withoutCode(markdown: string): string {
  const lines = markdown.split('\n');
  let fence: string | undefined;
  const kept = lines.map((line) => {
    const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (open && open[0] === fence[0] && open.length >= fence.length) fence = undefined;
      return '';
    }
    if (open) {
      fence = open;
      return '';
    }
    return line;
  });
  return kept.join('\n').replace(/(`+)[^`]*?\1/g, '');
}

/** Every link target of the document: inline links and images, reference definitions, HTML href/src. */
export function linkTargets(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets: string[] = [];
  for (const m of text.matchAll(/\]\(\s*<?([^\s)>]+)>?(?:\s+["'(][^)]*)?\)/g)) targets.push(m[1]!);
  for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)) targets.push(m[1]!);
  for (const m of text.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/gi)) targets.push(m[1]!);
  return targets;
}

/** A target with a scheme (`https:`, `mailto:`) or a host (`//…`) points elsewhere; any other is relative. */
export const isRelative = (target: string): boolean => !/^[a-z][a-z\d+.-]*:/i.test(target) && !target.startsWith('//');

/** The anchors GitHub gives the document's headings. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of withoutCode(markdown).matchAll(/^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/**
 * The relative links of `doc` (a path in the package) that lead nowhere in it: a file or folder the
 * package does not hold, or an anchor of the document that no heading has.
 */
export function deadRelativeLinks(doc: string, markdown: string, packageFiles: readonly string[]): string[] {
  const files = new Set(packageFiles);
  const dead: string[] = [];
  for (const target of linkTargets(markdown).filter(isRelative)) {
    const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
    if (pathPart === '') {
      if (anchor === undefined || !headingAnchors(markdown).has(decodeURIComponent(anchor))) dead.push(target);
      continue;
    }
    const path = posix.normalize(posix.join(posix.dirname(doc), decodeURIComponent(pathPart.split('?')[0]!))).replace(/\/$/, '');
    const found = files.has(path) || packageFiles.some((f) => f.startsWith(`${path}/`));
    if (path.startsWith('..') || !found) dead.push(target);
  }
  return dead;
}
