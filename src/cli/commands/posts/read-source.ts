// Reads --file / --from-file: a path, or "-" for standard input.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';

export interface Source {
  text: string;
  /** For messages: the path as given, or "stdin". */
  label: string;
  /** Folder that relative media paths inside the file start from. */
  baseDir: string;
  /** Absolute path, or undefined for stdin. */
  path: string | undefined;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks).toString('utf8');
}

export async function readSource(ctx: Context, arg: string, flag: string, cwd = process.cwd()): Promise<Source> {
  if (arg === '-') {
    if (ctx.io.stdin.isTTY) throw new UsageError(`${flag} -: standard input is a terminal`, [`pipe the file in (\`cat post.json | socialpub … ${flag} -\`) or give a path`]);
    return { text: stripBom(await readAll(ctx.io.stdin)), label: 'stdin', baseDir: cwd, path: undefined };
  }
  const path = resolve(cwd, arg);
  try {
    return { text: stripBom(await readFile(path, 'utf8')), label: arg, baseDir: dirname(path), path };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new UsageError(`${flag} ${arg}: ${why}`, ['check the path']);
  }
}

const stripBom = (s: string) => (s.charCodeAt(0) === 0xfeff ? s.slice(1) : s);
