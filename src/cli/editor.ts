// Opens the user's editor ($VISUAL, then $EDITOR, then vi) on a text and returns what was saved.
// The text lives in a private temporary folder (0700) as a 0600 file, removed afterwards; the
// editor is started through the shell so that values such as "code --wait" work, with the file
// path passed as "$1" so that no part of the path is ever read as shell syntax. The editor does not
// inherit the API key or the webhook secret: it is a third-party program that has no need of them.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from './context.js';
import { CliError, EXIT, UsageError } from './cli-error.js';

/** Environment variables the editor process never sees. */
const WITHHELD = ['SOCIALPUB_API_KEY', 'SOCIALPUB_WEBHOOK_SECRET'];

export function editorCommand(env: Readonly<Record<string, string | undefined>>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/**
 * vi, the editor of last resort, needs a terminal: without one (no terminal, --no-input, CI) and
 * with no $VISUAL or $EDITOR to run instead, it would wait for keys that never come.
 */
export function checkEditorRunnable(ctx: Context, flag: string): void {
  if (ctx.globals.interactive || ctx.env.VISUAL?.trim() || ctx.env.EDITOR?.trim()) return;
  throw new UsageError(`${flag}: no terminal to run vi on (no terminal, --no-input or CI), and no $VISUAL or $EDITOR names another editor`, [
    'give the texts with --text / --text-for, or set $EDITOR to a program that edits the file it is given without a terminal',
  ]);
}

/**
 * The editor did not give a text back: it exited with a non-zero status (an editor's way to say
 * "abandon", as with vim's :cq), was stopped by a signal, or could not be started. Nothing is
 * taken from the file. Exit 1: neither a usage error nor the service's doing.
 */
export class EditorFailedError extends CliError {
  constructor(
    /** What happened, naming the editor: "the editor (vim) exited with status 1". */
    readonly reason: string,
  ) {
    super(`${reason}: nothing was changed`, { exitCode: EXIT.error, hints: ['check $VISUAL / $EDITOR, or give the texts with --text / --text-for'] });
    this.name = 'EditorFailedError';
  }
}

/**
 * Lets the user edit `initial`; resolves to the saved text. Rejects with EditorFailedError when
 * the editor exited with a non-zero status or could not be started (the caller then changes
 * nothing), and with an AbortError (exit 130) when the run was interrupted meanwhile.
 * `suffix` names the file's ending (".md", ".txt") so that editors pick a sensible mode.
 */
export async function editText(ctx: Context, initial: string, options: { suffix: string }): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'socialpub-edit-'));
  try {
    const file = join(folder, `post${options.suffix.replace(/[^A-Za-z0-9._-]/g, '')}`);
    await writeFile(file, initial, { mode: 0o600 });
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(ctx.env)) {
      if (value !== undefined && !WITHHELD.includes(name)) env[name] = value;
    }
    const command = editorCommand(ctx.env);
    const ended = await runEditor(command, file, env);
    // Ctrl-C while the editor ran (a terminal editor in cooked mode, `code --wait`) reached us
    // too: the user is stopping, not choosing to type the text at the prompt instead.
    ctx.signal.throwIfAborted();
    if (ended.code !== 0) throw new EditorFailedError(`the editor (${command}) ${howItEnded(ended)}`);
    return await readFile(file, 'utf8');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

interface Ended {
  code: number | null;
  signal?: string;
  /** Why it could not be started at all. */
  startError?: string;
}

function howItEnded(e: Ended): string {
  if (e.startError !== undefined) return `could not be started: ${e.startError}`;
  if (e.signal !== undefined) return `was stopped by ${e.signal}`;
  // The shell's own status for a command it cannot find: say what it means.
  return `exited with status ${e.code}${e.code === 127 ? ' (the shell found no such command)' : ''}`;
}

function runEditor(command: string, file: string, env: Record<string, string>): Promise<Ended> {
  // Loaded here, not imported: child_process costs start-up time that most runs never use.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const windows = process.platform === 'win32';
  // On POSIX: sh -c '<editor> "$1"' socialpub-editor <file>. The editor value is the user's own
  // shell text (as git treats it); the path is an argument, never spliced into the script.
  const child = windows
    ? spawn(`${command} "${file}"`, { shell: true, stdio: 'inherit', env })
    : spawn('/bin/sh', ['-c', `${command} "$1"`, 'socialpub-editor', file], { stdio: 'inherit', env });
  return new Promise((resolve) => {
    child.once('error', (err) => resolve({ code: null, startError: err.message }));
    child.once('exit', (code, signal) => resolve(signal ? { code: null, signal } : { code }));
  });
}
