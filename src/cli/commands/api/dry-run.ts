// `api --dry-run`: the exact request the client would send (the client's own prepareRequest), with
// the key masked, on stdout. Nothing is sent.
import type { Context } from '../../context.js';
import type { PreparedRequest } from '../../../client/prepare.js';
import { redact, redactHeaders } from '../../../client/redact.js';

function bodyForDisplay(body: PreparedRequest['body'], secrets: string[]): { text: string | undefined; json: unknown } {
  if (body === undefined) return { text: undefined, json: null };
  let text: string;
  if (typeof body === 'string') text = body;
  else if (!(body instanceof Uint8Array)) {
    // A file streamed from disk (only media uploads send one): its size, not its bytes.
    const note = `<${body.size} bytes from a file>`;
    return { text: note, json: note };
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      const note = `<${body.byteLength} bytes>`;
      return { text: note, json: note };
    }
  }
  const shown = redact(text, secrets);
  try {
    return { text: shown, json: JSON.parse(shown) as unknown };
  } catch {
    return { text: shown, json: shown };
  }
}

export async function printPreparedRequest(ctx: Context, prepared: PreparedRequest, apiKey: string | undefined): Promise<void> {
  const secrets = apiKey ? [apiKey] : [];
  const headers = redactHeaders(prepared.headers, secrets);
  const url = redact(prepared.url, secrets);
  const body = bodyForDisplay(prepared.body, secrets);
  const out = ctx.output();
  await out.object({ method: prepared.method, url, headers, body: body.json }, () => {
    const lines = [`${prepared.method} ${url}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    if (body.text !== undefined) lines.push('', body.text);
    return lines.join('\n');
  });
  out.info('dry run: nothing was sent');
}
