// Exit codes of the contract (CONTRACT section 3). A public interface: only ever grows.
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  network: 6,
  partial: 7,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODE_HELP: ReadonlyArray<[number, string]> = [
  [EXIT.ok, 'success (an empty list too)'],
  [EXIT.error, 'unexpected error, or the server failed (5xx) after retries'],
  [EXIT.usage, 'usage or invalid input: bad flag, bad value, 400 or 422 from the server; nothing was sent when the client could tell first'],
  [EXIT.auth, 'authentication: no key, 401, 403 (ADDON_REQUIRED); the message says how to fix it'],
  [EXIT.notFound, 'not found (404)'],
  [EXIT.rateLimited, 'rate limited beyond --max-retries / --max-wait; the message says when to retry'],
  [EXIT.network, 'network failure or timeout after retries'],
  [EXIT.partial, 'partial failure: some items or some targets failed (bulk schedule, results wait)'],
  [EXIT.interrupted, 'interrupted (Ctrl-C)'],
];
