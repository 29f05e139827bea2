// The yes-or-no question put to the user through the client (MCP elicitation, form mode) before a
// destructive change: the summary of the change, and one boolean. Anything but an explicit yes is
// a no; a client that fails to answer, or answers too late, is a "no answer", never a yes.
import { ElicitResultSchema, type ClientRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Answer } from './confirm.js';
import { peerErrorText } from './peer-error-text.js';

/** What the server needs to put a request to the client within a tool call. */
export type SendRequest = (request: ClientRequest | { method: 'elicitation/create'; params: Record<string, unknown> }, schema: typeof ElicitResultSchema, options: { signal: AbortSignal; timeout: number }) => Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>;

export interface AskOptions {
  /** The call's own signal (the client cancelled, the server stops): the question is withdrawn and the call ends. */
  signal: AbortSignal;
  /** How long the user has: the question is withdrawn after it, and the answer is "no answer". */
  waitMs: number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  onNoAnswer(why: string): void;
}

export async function askUser(send: SendRequest, summary: string, o: AskOptions): Promise<Answer> {
  const seconds = Math.floor(o.waitMs / 1000);
  // On the call's clock: when it runs out, the SDK withdraws the question (notifications/cancelled),
  // so a yes given later reaches no one.
  const late = new AbortController();
  const answered = new AbortController();
  o.sleep(o.waitMs, AbortSignal.any([o.signal, answered.signal])).then(
    () => late.abort(new Error(`none within ${seconds} s`)),
    () => undefined,
  );
  try {
    const answer = await send(
      {
        method: 'elicitation/create',
        params: {
          message: `${summary} Go ahead? (Answer within ${seconds} s; after that nothing is sent.)`,
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Go ahead', description: 'Yes: make this change now. No or cancel: nothing is sent.' } }, required: ['confirm'] },
        },
      },
      ElicitResultSchema,
      // The SDK's own timer only backs up the call's clock (a second later, so the clock words it).
      { signal: AbortSignal.any([o.signal, late.signal]), timeout: o.waitMs + 1_000 },
    );
    // A yes that arrives as the client gives up on the call still acts on nothing.
    o.signal.throwIfAborted();
    return answer.action === 'accept' ? (answer.content?.confirm === true ? 'accept' : 'decline') : answer.action;
  } catch (err) {
    if (o.signal.aborted) throw err;
    o.onNoAnswer(late.signal.aborted ? `none within ${seconds} s` : peerErrorText(err));
    return 'no-answer';
  } finally {
    answered.abort();
  }
}
