// get_result: one publishing result in full (the lists trim rows to the fields that matter).
import { ApiError } from '../../client/errors.js';
import { ToolError } from '../errors.js';
import { FieldInputError } from '../../wire/invalid-input.js';
import { cannotBeAnId, looksLikePostId } from '../../wire/protocol.js';
import type { ToolDefinition } from '../types.js';
import { MAX_ID } from './fields.js';

export const getResult: ToolDefinition = {
  name: 'get_result',
  description:
    "One publishing result in full: the platform's post id and URL, the account, a failure's code, message and context.",
  inputSchema: {
    type: 'object',
    properties: { result_id: { type: 'string', minLength: 1, maxLength: MAX_ID, fix: 'give a result id as list_results returns it' } },
    required: ['result_id'],
    additionalProperties: false,
  },
  annotations: { title: 'Get a publishing result', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  write: false,
  async run(args, tc) {
    const id = String(args.result_id).trim();
    // Told before anything is sent: a blank id would ask for the list's address.
    if (id === '') throw new FieldInputError('result_id', 'result_id: is blank', 'give a result id as list_results or wait_for_results returns it');
    if (looksLikePostId(id)) throw new FieldInputError('result_id', `result_id: "${id}" is a post id, not a result id`, 'get_post shows that post with its results');
    if (cannotBeAnId(id)) throw new FieldInputError('result_id', `result_id: ${JSON.stringify(id)} is not a result id`, 'give a result id as list_results or wait_for_results returns it');
    const client = await tc.deps.client();
    try {
      return { result: (await client.results.get(id)).data };
    } catch (err) {
      if (err instanceof ApiError && err.kind === 'not-found') {
        // The service answers 404 for another workspace's id too: say where we looked, nothing more.
        throw new ToolError({ code: 'not_found', field: 'result_id', message: `result_id: no result ${id} in the workspace of profile ${tc.deps.profileName}`, hints: ['list_results shows the results of this workspace'], ...(err.requestId ? { requestId: err.requestId } : {}) });
      }
      throw err;
    }
  },
};
