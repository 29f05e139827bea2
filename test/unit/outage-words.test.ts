// The line that starts an outage in `results wait` and `results list --follow` names what happened:
// a service that answered with a 5xx is failing, not unreachable.
import { describe, expect, it } from 'vitest';
import { outageEnd, outageStart } from '../../src/cli/commands/results/outage-words.js';
import { errorForResponse, describeErrorBody } from '../../src/client/error-mapping.js';
import { NetworkError, ResponseShapeError } from '../../src/client/errors.js';

const answer = (status: number, statusText: string, body: unknown) =>
  errorForResponse({ status, statusText, method: 'GET', target: '/api/v1/post-results', described: describeErrorBody(JSON.stringify(body), (v) => v), requestId: undefined, idempotencyKey: undefined, attempts: 3 });

describe('outageStart', () => {
  it('a 5xx: the service answered and is failing, with its status, attempts and words', () => {
    const line = outageStart(answer(503, 'Service Unavailable', { error: { code: 'UNAVAILABLE', message: 'down for maintenance' } }));
    expect(line).toBe('service failing: it answered 503 Service Unavailable after 3 attempts: down for maintenance');
  });

  it('no answer at all: unreachable; an answer it cannot read: said so', () => {
    expect(outageStart(new NetworkError('could not reach http://127.0.0.1:9: ECONNREFUSED'))).toBe('service unreachable: could not reach http://127.0.0.1:9: ECONNREFUSED');
    expect(outageStart(new ResponseShapeError('unexpected response from GET /x'))).toBe('service answers in a shape socialpub cannot read: unexpected response from GET /x');
  });

  it('the line that ends it uses the same words: reachable again only after unreachable', () => {
    expect(outageEnd(answer(503, 'Service Unavailable', {}))).toBe('service working again');
    expect(outageEnd(new NetworkError('could not reach x'))).toBe('service reachable again');
    expect(outageEnd(new ResponseShapeError('unexpected response'))).toBe('service answers in a shape socialpub can read again');
  });
});
