// The response body on stdout: JSON pretty for a reader (table/json), compact for a pipe
// (tsv/ndjson, the piped default); a body that is not JSON as it came.
import type { Context } from '../../context.js';
import { writeTo } from '../../../output/writers.js';

export function prettyJson(ctx: Context): boolean {
  return ctx.globals.format === 'json' || ctx.globals.format === 'table';
}

export async function printBody(ctx: Context, data: unknown, contentType: string | undefined): Promise<void> {
  if (data === undefined || data === '') return;
  const stdout = ctx.io.stdout;
  if (typeof data === 'string' && !/json/i.test(contentType ?? '')) {
    await writeTo(stdout, data.endsWith('\n') ? data : `${data}\n`);
    return;
  }
  await writeTo(stdout, `${JSON.stringify(data, null, prettyJson(ctx) ? 2 : undefined)}\n`);
}
