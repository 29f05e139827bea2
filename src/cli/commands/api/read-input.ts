// `--input FILE|-`: the request body, byte for byte, from a file or stdin.
import { readFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';

export async function readInput(ctx: Context, file: string): Promise<Uint8Array> {
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

/** JSON bodies go as application/json; anything else as bytes. */
export function contentTypeOf(bytes: Uint8Array): string {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return 'application/json';
  } catch {
    return 'application/octet-stream';
  }
}
