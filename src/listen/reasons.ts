// Every way a request can be turned away: the status answered and a one-line reason for people.
import type { VerifyFailure } from '../wire/webhook-signing.js';
import type { RejectReason } from './types.js';

export const REJECT_STATUS: Record<RejectReason, number> = {
  'forbidden-host': 403,
  'not-found': 404,
  'method-not-allowed': 405,
  'body-too-large': 413,
  'headers-timeout': 408,
  'body-timeout': 408,
  'bad-request': 400,
  'expectation-failed': 417,
  'missing-headers': 401,
  'bad-timestamp': 401,
  'timestamp-too-old': 401,
  'timestamp-too-new': 401,
  'no-matching-signature': 401,
  'malformed-json': 400,
  'not-an-object': 400,
  'internal-error': 500,
};

/** Short labels for summaries ("rejected 3: bad signature 2, wrong method 1"). */
export const REJECT_LABEL: Record<RejectReason, string> = {
  'forbidden-host': 'foreign Host header',
  'not-found': 'wrong path',
  'method-not-allowed': 'not POST',
  'body-too-large': 'body too large',
  'headers-timeout': 'headers too slow',
  'body-timeout': 'body too slow',
  'bad-request': 'malformed HTTP',
  'expectation-failed': 'unsupported Expect',
  'missing-headers': 'missing signature headers',
  'bad-timestamp': 'bad timestamp',
  'timestamp-too-old': 'timestamp too old',
  'timestamp-too-new': 'timestamp in the future',
  'no-matching-signature': 'bad signature',
  'malformed-json': 'malformed JSON',
  'not-an-object': 'not a JSON object',
  'internal-error': 'internal error',
};

export function verifyDetail(reason: VerifyFailure, nowSeconds: number, timestamp: string | undefined): string {
  switch (reason) {
    case 'missing-headers':
      return 'missing webhook-id, webhook-timestamp or webhook-signature header';
    case 'bad-timestamp':
      return 'webhook-timestamp is not a number of seconds';
    case 'timestamp-too-old':
      return `webhook-timestamp is ${Number(timestamp) > 0 ? nowSeconds - Number(timestamp) : '?'} s old (more than 5 min): a replay, or this machine's clock is wrong`;
    case 'timestamp-too-new':
      return `webhook-timestamp is ${Number(timestamp) - nowSeconds} s in the future (more than 5 min): check the clocks`;
    case 'no-matching-signature':
      return 'no v1 signature matches: wrong secret, or the body was altered';
  }
}
