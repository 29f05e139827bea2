// One message, one fix: hints that repeat the message (or each other) are not printed again.
import { describe, expect, it } from 'vitest';
import { distinctHints, reportError } from '../../src/cli/errors.js';
import { errorForResponse } from '../../src/client/error-mapping.js';
import { RateLimitError } from '../../src/client/errors.js';
import { UsageError } from '../../src/cli/cli-error.js';

const facts = (status: number, code: string, message: string) => ({
  status,
  statusText: '',
  method: 'GET',
  target: '/api/v1/post-results',
  described: { code, message, issues: [], body: { error: { code, message } }, requestId: undefined },
  requestId: 'req_1',
  idempotencyKey: undefined,
});

describe('distinct hints', () => {
  it('drops a hint the message says word for word (spacing and case aside), and repeats', () => {
    expect(distinctHints('payloads.x.text: Required', ['payloads.x.text:  required', 'add a text', 'Add a text'])).toEqual(['add a text']);
  });

  it('a 403 add-on refusal with the service naming the fix: the add-on once, Billing once', () => {
    const err = errorForResponse(facts(403, 'ADDON_REQUIRED', 'the API add-on is not active for workspace "acme": buy it under Billing → Add-ons, then retry'));
    expect(err.message).toBe('the API add-on is not active for workspace "acme": buy it under Billing → Add-ons, then retry');
    const chunks: string[] = [];
    reportError(err, { stderr: { write: (s) => chunks.push(s) > 0 }, json: false, now: 0 });
    expect(chunks.join('').match(/Billing → Add-ons/g)).toHaveLength(1);
  });

  it('a 403 add-on refusal without the service naming the fix still gets the fix as a hint', () => {
    const err = errorForResponse(facts(403, 'ADDON_REQUIRED', 'forbidden'));
    const chunks: string[] = [];
    reportError(err, { stderr: { write: (s) => chunks.push(s) > 0 }, json: false, now: 0 });
    expect(chunks.join('')).toMatch(/error: the API add-on is not active for this workspace: forbidden\n {2}hint: .*Billing → Add-ons/);
  });

  it('applies to every error, not only the service ones', () => {
    const chunks: string[] = [];
    reportError(new UsageError('--x: bad', ['--x: bad', 'give a good --x']), { stderr: { write: (s) => chunks.push(s) > 0 }, json: false, now: 0 });
    expect(chunks.join('')).toBe('error: --x: bad\n  hint: give a good --x\n');
  });
});

describe('a rate limit without a time to retry', () => {
  it("the hint speaks of the workspace's requests, not of writes alone (a read can be limited too)", () => {
    const chunks: string[] = [];
    reportError(new RateLimitError('rate limited', { status: 429 }), { stderr: { write: (s) => chunks.push(s) > 0 }, json: false, now: 0 });
    const text = chunks.join('');
    expect(text).toContain("the service limits each workspace's requests per hour (writes to 100)");
    expect(text).not.toContain('writes are limited');
  });
});
