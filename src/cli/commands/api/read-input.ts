// `--input FILE|-`: the request body, byte for byte, from a file or stdin.
import { readFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';

/** The body, refused when there is none: an empty pipe or file is a mistake, not a body to send. */
export async function readInput(ctx: Context, file: string): Promise<Uint8Array> {
  const bytes = await readBytes(ctx, file);
  if (isBlank(bytes)) {
    throw file === '-'
      ? new UsageError('--input -: stdin was empty, so there is no request body to send', ['pipe the body in: socialpub api -X POST /v1/posts --input - < post.json', 'or leave --input out and give the fields with -f key=value'])
      : new UsageError(`--input ${file}: the file is empty, so there is no request body to send`, ['put the body in the file, or leave --input out and give the fields with -f key=value']);
  }
  return bytes;
}

async function readBytes(ctx: Context, file: string): Promise<Uint8Array> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new UsageError(`--input: cannot read ${file} (${code})`, ['give a readable file, or - to read the body from stdin']);
  }
}

/** Nothing but spaces, tabs and line ends (what `echo | …` or an unwritten file gives). */
const isBlank = (bytes: Uint8Array): boolean => bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);

/** JSON bodies go as application/json; anything else as bytes. */
export function contentTypeOf(bytes: Uint8Array): string {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return 'application/json';
  } catch {
    return 'application/octet-stream';
  }
}
