// The yes-or-no question put to the user through the client (MCP elicitation, form mode) before a
// destructive change: the summary of the change, and one boolean. Anything but an explicit yes is
// a no; a client that fails to answer is a "no answer", never a yes.
import { ElicitResultSchema, type ClientRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Answer } from './confirm.js';
import { peerErrorText } from './peer-error-text.js';

/** How long the user has to answer. */
export const CONFIRM_WAIT_MS = 10 * 60_000;

/** What the server needs to put a request to the client within a tool call. */
export type SendRequest = (request: ClientRequest | { method: 'elicitation/create'; params: Record<string, unknown> }, schema: typeof ElicitResultSchema, options: { signal: AbortSignal; timeout: number }) => Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>;

export async function askUser(send: SendRequest, summary: string, signal: AbortSignal, onNoAnswer: (why: string) => void): Promise<Answer> {
  try {
    const answer = await send(
      {
        method: 'elicitation/create',
        params: {
          message: `${summary} Go ahead?`,
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Go ahead', description: 'Yes: make this change now. No or cancel: nothing is sent.' } }, required: ['confirm'] },
        },
      },
      ElicitResultSchema,
      { signal, timeout: CONFIRM_WAIT_MS },
    );
    return answer.action === 'accept' ? (answer.content?.confirm === true ? 'accept' : 'decline') : answer.action;
  } catch (err) {
    if (signal.aborted) throw err;
    onNoAnswer(peerErrorText(err));
    return 'no-answer';
  }
}
