// Where `auth login` gets the key: stdin with --with-key, or a hidden prompt on a terminal.
// Never a flag value (shell history, process listings).
import { UsageError } from '../../cli-error.js';
import type { Context } from '../../context.js';
import { keyShape } from '../../../config/resolve.js';

const PIPE_EXAMPLE = 'printf %s "$KEY" | socialpub auth login --with-key';
/** Far more than any key; stops a mistaken `< big-file` from being read whole. */
const MAX_STDIN_BYTES = 16 * 1024;

export async function readKey(ctx: Context, options: { withKey: boolean; prompt: string }): Promise<string> {
  let key: string;
  // --with-key typed at a keyboard (stdin a terminal, prompts allowed): stdin would echo the whole
  // key onto the screen and its scrollback, so the hidden prompt reads it instead.
  const atKeyboard = Boolean(ctx.io.stdin.isTTY) && ctx.globals.interactive;
  if (options.withKey && !atKeyboard) {
    if (ctx.io.stdin.isTTY) ctx.io.stderr.write('Paste the API key, then press Enter and Ctrl-D (it shows as you paste it):\n');
    key = (await readStdin(ctx)).trim();
    if (!key) throw new UsageError('--with-key: nothing arrived on stdin', [`pipe the key in: ${PIPE_EXAMPLE}`], 'NO_API_KEY');
    if (/\s/.test(key) && !/^bearer\s/i.test(key)) throw new UsageError('--with-key: stdin held more than the key (several lines or spaces)', [`pipe only the key: ${PIPE_EXAMPLE}`]);
  } else if (ctx.globals.interactive) {
    key = (await ctx.prompter().password({ message: options.prompt })).trim();
    if (!key) throw new UsageError('no key entered', ['paste the key at the prompt, or pipe it in with --with-key']);
  } else {
    throw new UsageError('no terminal to ask for the key on: pass it on stdin with --with-key', [`${PIPE_EXAMPLE}`, 'or set SOCIALPUB_API_KEY for a single run without saving it'], 'NO_INPUT');
  }
  // Control characters or non-ASCII cannot go into an Authorization header; a "Bearer " prefix
  // or quotes copied along with the key would be refused by the service after the check.
  const shape = keyShape(key);
  if (shape) throw new UsageError(`the key ${shape}: give the key alone`, ['copy the key again from Settings → Developers']);
  return key;
}

async function readStdin(ctx: Context): Promise<string> {
  const { stdin } = ctx.io;
  const chunks: Buffer[] = [];
  let size = 0;
  const reading = (async () => {
    for await (const chunk of stdin) {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > MAX_STDIN_BYTES) throw new UsageError(`--with-key: stdin holds more than ${MAX_STDIN_BYTES / 1024} KiB; it should hold only the key`);
      chunks.push(buf);
    }
  })();
  // Ctrl-C while waiting for input ends the command at once (exit 130); stdin is let go so
  // that it no longer keeps the process alive.
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      (stdin as { destroy?: () => void }).destroy?.();
      reject(Object.assign(new Error('interrupted'), { name: 'AbortError' }));
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([reading, aborted]);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort!);
  }
  return Buffer.concat(chunks).toString('utf8');
}
