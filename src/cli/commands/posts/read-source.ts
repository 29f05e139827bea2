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

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks);
}

/**
 * The file's text. UTF-8 (a leading BOM dropped), or UTF-16 with its BOM (a spreadsheet's
 * "Unicode text"); anything else, such as a CSV saved as Windows-1252, is refused with its first
 * bad line: decoded anyway, every accented letter would be posted as U+FFFD.
 */
function decode(bytes: Buffer, what: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    const line = text.slice(0, text.indexOf('\uFFFD')).split('\n').length;
    throw new UsageError(`${what}: line ${line} is not UTF-8 text (saved in another encoding, such as Windows-1252?)`, [
      'save it as UTF-8 ("CSV UTF-8" in a spreadsheet), or convert it: iconv -f WINDOWS-1252 -t UTF-8 in.csv > out.csv',
    ]);
  }
}

export async function readSource(ctx: Context, arg: string, flag: string, cwd = process.cwd()): Promise<Source> {
  if (arg === '-') {
    if (ctx.io.stdin.isTTY) throw new UsageError(`${flag} -: standard input is a terminal`, [`pipe the file in (\`cat post.json | socialpub … ${flag} -\`) or give a path`]);
    return { text: decode(await readAll(ctx.io.stdin), `${flag} -`), label: 'stdin', baseDir: cwd, path: undefined };
  }
  const path = resolve(cwd, arg);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new UsageError(`${flag} ${arg}: ${why}`, ['check the path']);
  }
  return { text: decode(bytes, `${flag} ${arg}`), label: arg, baseDir: dirname(path), path };
}
