// The response body on stdout: a JSON document as output prints one (indented for a reader,
// one line for a pipe); a body that is not JSON as it came.
import type { Context } from '../../context.js';

export async function printBody(ctx: Context, data: unknown, contentType: string | undefined): Promise<void> {
  if (data === undefined || data === '') return;
  const out = ctx.output();
  if (typeof data === 'string' && !/json/i.test(contentType ?? '')) await out.data(data.replace(/\n$/, ''));
  else await out.document(data);
}
