// Asks a real shell what it would complete for a command line, given a completion script:
// bash through the script's own function (with COMP_WORDS as bash would split them), fish
// through `complete -C`, zsh by pressing Tab in an interactive zsh on a pseudo-terminal (zpty).
// Used by the generated-script tests (unit and e2e).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function hasShell(shell: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
}

export const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface BashOptions {
  env?: Record<string, string>;
  /** A COMP_WORDBREAKS to split the line with (bash's default has no "/" or ","). */
  wordbreaks?: string;
}

/** What bash offers for `line` (the cursor at its end), sorted. */
export function bashComplete(script: string, line: string, opts: BashOptions = {}): string[] {
  const words: string[] = [];
  for (const spaced of line.split(' ')) {
    if (spaced === '') words.push('');
    // Each break character is a word of its own, as in bash (`Europe/Pa` → Europe, /, Pa).
    else words.push(...(opts.wordbreaks ? spaced.split(new RegExp(`([${opts.wordbreaks.replace(/[\]\\^-]/g, '\\$&')}])`)).filter(Boolean) : [spaced]));
  }
  const setup = [
    `source ${sq(script)}`,
    opts.wordbreaks === undefined ? '' : `COMP_WORDBREAKS=${sq(opts.wordbreaks)}`,
    `COMP_LINE=${sq(line)}`,
    `COMP_POINT=${line.length}`,
    `COMP_WORDS=(${words.map(sq).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_socialpub',
    `printf '%s\\n' "\${COMPREPLY[@]}"`,
  ];
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', setup.filter(Boolean).join('; ')], { env: { PATH: process.env.PATH ?? '', ...opts.env }, encoding: 'utf8' });
  return out.split('\n').filter(Boolean).sort();
}

/** What fish offers for `line`, candidates only (descriptions dropped), sorted. */
export function fishComplete(script: string, line: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync('fish', ['--no-config', '-c', `source ${sq(script)}; complete -C ${sq(line)}`], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t')[0]!)
    .sort();
}

/** After Tab in zsh: the line as edited, and every match offered (sorted, without repeats). */
export function zshComplete(script: string, line: string, env: Record<string, string> = {}): { buffer: string; matches: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'socialpub-zsh-'));
  try {
    const driver = fileURLToPath(new URL('zsh-complete.zsh', import.meta.url));
    const out = join(dir, 'out');
    execFileSync('zsh', ['-f', driver, script, out, line], { env: { PATH: process.env.PATH ?? '', HOME: dir, TERM: 'dumb', ...env }, timeout: 20_000 });
    const buffer = existsSync(`${out}.buffer`) ? readFileSync(`${out}.buffer`, 'utf8').replace(/\n$/, '') : '';
    const matches = existsSync(`${out}.matches`) ? readFileSync(`${out}.matches`, 'utf8').split('\n').filter(Boolean) : [];
    return { buffer, matches: [...new Set(matches)].sort() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
