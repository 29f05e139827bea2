// socialpub(1): the command reference as one roff man page (every command in one page). The build
// writes it to dist/man/socialpub.1 (`npm run docs`), and package.json's `man` field installs it.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { EXIT_CODE_HELP } from '../../cli-error.js';
import { ENVIRONMENT } from '../../help-topics.js';
import { referenceOf, type ReferenceItem } from './reference.js';

/** Text as roff reads it literally: backslashes, minus signs, non-ASCII, and control lines. */
export function roffEscape(text: string): string {
  const escaped = [...text]
    .map((ch) => {
      if (ch === '\\') return '\\e';
      if (ch === '-') return '\\-';
      const code = ch.codePointAt(0)!;
      return code > 0x7e ? `\\[u${code.toString(16).toUpperCase().padStart(4, '0')}]` : ch;
    })
    .join('');
  // A line that starts with . or ' would be read as a request.
  return escaped.replace(/^([.'])/gm, '\\&$1');
}

function tagged(list: ReadonlyArray<ReferenceItem>): string[] {
  return list.flatMap((i) => ['.TP', roffEscape(i.term), roffEscape(i.description)]);
}

/** Verbatim lines (examples keep their indentation). */
function verbatim(text: string): string[] {
  if (!text) return [];
  return ['.PP', '.nf', ...text.split('\n').map((line) => (line.trim() ? roffEscape(line) : '.sp')), '.fi'];
}

export function manPage(root: CommandUnknownOpts, version: string): string {
  const [top, ...commands] = referenceOf(root);
  const lines: string[] = [
    `.\\" Generated from the command tree by \`socialpub help reference --man\` (npm run docs); do not edit.`,
    `.TH SOCIALPUB 1 "" "socialpub ${roffEscape(version)}" "User Commands"`,
    '.nh',
    '.ad l',
    '.SH NAME',
    `socialpub \\- ${roffEscape(top!.summary.replace(/\.$/, ''))}`,
    '.SH SYNOPSIS',
    '.B socialpub',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIsubcommand\\fR] [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    roffEscape(top!.description),
    ...verbatim(top!.after),
    '.SH GLOBAL OPTIONS',
    'Accepted before or after any command.',
    ...tagged(top!.options),
    '.SH COMMANDS',
  ];
  for (const c of commands) {
    lines.push(`.SS "${roffEscape(['socialpub', ...c.path].join(' '))}"`, roffEscape(c.summary), '.PP', `Usage: \\fB${roffEscape(c.usage)}\\fR`);
    if (c.description && c.description !== c.summary) lines.push('.PP', roffEscape(c.description));
    if (c.arguments.length) lines.push('.PP', 'Arguments:', '.RS', ...tagged(c.arguments), '.RE');
    if (c.subcommands.length) lines.push('.PP', 'Commands:', '.RS', ...tagged(c.subcommands), '.RE');
    if (c.options.length) lines.push('.PP', 'Options:', '.RS', ...tagged(c.options), '.RE');
    lines.push(...verbatim(c.after));
  }
  lines.push(
    '.SH ENVIRONMENT',
    ...tagged(ENVIRONMENT.map(([term, description]) => ({ term, description }))),
    '.SH EXIT STATUS',
    ...tagged(EXIT_CODE_HELP.map(([code, description]) => ({ term: String(code), description }))),
    '.SH SEE ALSO',
    roffEscape('socialpub help reference (this page as plain text), socialpub help environment, socialpub help exit-codes, socialpub completion bash|zsh|fish.'),
  );
  return lines.join('\n') + '\n';
}
