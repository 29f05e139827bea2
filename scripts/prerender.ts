// Build-time only (run by scripts/gen-prerendered.mjs): renders the outputs that depend on
// nothing but the command tree (help, topics, completion scripts, the version), so
// bin/socialpub.js can print them without loading the program. Every output is rendered in several settings and kept only when they all agree.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { Readable } from 'node:stream';
import type { Io, OutStream } from '../src/cli/context.js';
import { buildProgram } from '../src/cli/program.js';
import { createContext, systemClock } from '../src/cli/create-context.js';
import { runProgram } from '../src/cli/run.js';

export { VERSION } from '../src/version.js';

/**
 * `help`: commander's help at 80 columns, valid on a pipe and on an 80-column terminal.
 * `piped`: valid only when stdout is not a terminal (on one, output may page or colour).
 */
export type PrerenderKind = 'help' | 'piped';

export interface Prerendered {
  argv: string[];
  kind: PrerenderKind;
  text: string;
}

/** The width the help is rendered at; other terminal widths fall back to the program. */
export const PRERENDER_COLUMNS = 80;

interface Setting {
  tty: boolean;
  env: NodeJS.ProcessEnv;
}

const PIPED: Setting[] = [
  { tty: false, env: {} },
  { tty: false, env: { FORCE_COLOR: '1', CLICOLOR_FORCE: '1', CI: '1', SOCIALPUB_DEBUG: '1', SOCIALPUB_PROFILE: 'other', TERM: 'dumb' } },
];
const ON_TERMINAL: Setting[] = [
  { tty: true, env: {} },
  { tty: true, env: { NO_COLOR: '1' } },
];

function sink(tty: boolean): OutStream & { text: string } {
  const s = {
    text: '',
    isTTY: tty,
    columns: tty ? PRERENDER_COLUMNS : undefined,
    write(chunk: string) {
      s.text += chunk;
      return true;
    },
  };
  return s;
}

async function render(argv: string[], setting: Setting, version: string): Promise<string | undefined> {
  const stdout = sink(setting.tty);
  const stderr = sink(setting.tty);
  const io: Io = { stdout, stderr, stdin: Readable.from([]), stdinIsTTY: false, pageable: false };
  const code = await runProgram(argv, { io, env: setting.env, clock: systemClock, signal: new AbortController().signal, version });
  return code === 0 && stderr.text === '' ? stdout.text : undefined;
}

/** Every command path of the tree, the root ([]) first. */
async function commandPaths(version: string): Promise<string[][]> {
  const ctx = createContext({ io: { stdout: sink(false), stderr: sink(false), stdin: Readable.from([]) }, env: {}, clock: systemClock, signal: new AbortController().signal, version });
  const paths: string[][] = [];
  const walk = (cmd: CommandUnknownOpts, path: string[]) => {
    paths.push(path);
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(await buildProgram(ctx), []);
  return paths;
}

/** The argvs worth answering without the program: the help paths, topics, completions, version. */
export async function prerenderArgvs(version: string): Promise<Array<{ argv: string[]; kind: PrerenderKind }>> {
  const out: Array<{ argv: string[]; kind: PrerenderKind }> = [];
  for (const path of await commandPaths(version)) {
    out.push({ argv: [...path, '--help'], kind: 'help' }, { argv: [...path, '-h'], kind: 'help' }, { argv: ['help', ...path], kind: 'help' });
  }
  out.push({ argv: ['--version'], kind: 'help' }, { argv: ['-V'], kind: 'help' });
  for (const topic of ['environment', 'exit-codes', 'mcp']) out.push({ argv: ['help', topic], kind: 'piped' });
  for (const shell of ['bash', 'zsh', 'fish']) out.push({ argv: ['completion', shell], kind: 'piped' });
  return out;
}

/**
 * Renders every candidate in each setting its kind must hold in; a candidate whose settings
 * disagree (or that fails or writes to stderr) is left to the program.
 */
export async function prerender(version: string): Promise<Prerendered[]> {
  const out: Prerendered[] = [];
  for (const { argv, kind } of await prerenderArgvs(version)) {
    const settings = kind === 'help' ? [...PIPED, ...ON_TERMINAL] : PIPED;
    const texts = new Set<string | undefined>();
    for (const setting of settings) texts.add(await render(argv, setting, version));
    const [text] = texts;
    if (texts.size === 1 && text !== undefined) out.push({ argv, kind, text });
  }
  return out;
}

/** The file name an argv's output is stored under (the bin computes the same). */
export function prerenderFile(argv: string[]): string {
  return `${argv.join(' ')}.txt`;
}
