// Opens the user's editor ($VISUAL, then $EDITOR, then vi) on a temporary file holding `initial`
// and returns what was saved; undefined when the editor failed (a non-zero exit). The file lives
// in a private folder (0700) and is removed afterwards.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from './context.js';

export async function editText(ctx: Context, initial: string, options: { suffix: string }): Promise<string | undefined> {
  const editor = ctx.env.VISUAL || ctx.env.EDITOR || 'vi';
  const dir = await mkdtemp(join(tmpdir(), 'socialpub-edit-'));
  const file = join(dir, `post${options.suffix}`);
  try {
    await writeFile(file, initial, { mode: 0o600 });
    // Through the shell: editors are often given with arguments ("code --wait").
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn('sh', ['-c', `${editor} "$1"`, 'editor', file], { stdio: 'inherit', env: { ...ctx.env } as NodeJS.ProcessEnv });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    return code === 0 ? await readFile(file, 'utf8') : undefined;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
