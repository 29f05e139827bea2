// The file `posts edit --editor` opens: one section per platform, headed "=== <platform> ===",
// holding that platform's text as it is; lines starting with "//" are comments (the limits, how
// to use the file) and are dropped. "#" is left alone: hashtags start lines of real posts.
import { PLATFORM_LIMITS, isPlatform } from '../wire/platforms.js';
import { judgeText, unitWord } from '../wire/text-limits.js';

const HEADER = /^=== *([A-Za-z0-9_-]+) *===\s*$/;

/** "// bluesky: at most 300 graphemes; now 12": a platform's limit in its unit, and the text's count. */
function limitLine(platform: string, text: string): string | undefined {
  if (!isPlatform(platform)) return undefined;
  const v = judgeText(platform, text);
  return `// ${platform}: at most ${v.limit} ${unitWord(platform, v.limit)}${PLATFORM_LIMITS[platform].textUnit === 'x-weighted' ? ' (emoji and CJK count 2, links 23)' : ''}; now ${v.count.length}`;
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

export function editorFile(postId: string, texts: ReadonlyMap<string, string>): string {
  // Short lines: the editor may sit in a narrow terminal.
  const lines = [
    `// Editing the texts of ${postId}, one section per platform.`,
    '// Lines starting with // are ignored. Save and quit to apply;',
    '// an unchanged or empty file changes nothing.',
  ];
  for (const [platform, text] of texts) {
    lines.push('', `=== ${platform} ===`);
    const limit = limitLine(platform, text);
    if (limit) lines.push(limit);
    lines.push(text);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The sections' texts, or 'empty' for a file with no text at all. A section's surrounding blank
 * lines are trimmed; a platform whose section was deleted keeps its text.
 */
export function parseEditorFile(content: string): Map<string, string> | 'empty' {
  const texts = new Map<string, string>();
  let current: string | undefined;
  let body: string[] = [];
  const close = () => {
    if (current !== undefined) texts.set(current, body.join('\n').replace(/^\s*\n/, '').trimEnd());
  };
  for (const line of content.replace(/\r\n/g, '\n').split('\n')) {
    if (line.startsWith('//')) continue;
    const header = HEADER.exec(line);
    if (header) {
      close();
      current = header[1]!;
      body = [];
    } else if (current !== undefined) body.push(line);
  }
  close();
  return [...texts.values()].every((t) => t.trim() === '') ? 'empty' : texts;
}
