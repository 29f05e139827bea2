// The response body on stdout: a JSON document as output prints one (indented for a reader,
// one line for a pipe); a body that is not JSON as it came, except for the control characters in
// it (an HTML error page may carry escape sequences too), which are shown, not obeyed.
import type { Context } from '../../context.js';
import { visible } from '../../../output/terminal-safe.js';

/** `asIs`: an error body, printed whole (as gh api does), not through --jq or --fields. */
export async function printBody(ctx: Context, data: unknown, contentType: string | undefined, asIs = false): Promise<void> {
  if (data === undefined || data === '') return;
  const out = ctx.output();
  if (typeof data === 'string' && !/json/i.test(contentType ?? '')) await out.data(visible(data.replace(/\n$/, '')));
  else await out.document(data, { asIs });
}
