// Which dialect a request speaks, by its path: everything under /api/v1 is SyncPostly's
// (src/wire/syncpostly/assumptions.ts) except /api/v1/post-results, which both dialects share and
// which keeps this contract's answers. A SyncPostly error is `{ error: string, issues? }`, its issues
// Zod's (`path` an array, `message`, `code`); an error raised by the shared pipeline (a bad page
// parameter, 429, 405…) is turned into that shape here, in one place.
import type { Dialect } from '../../wire/dialects.js';
import { SP_PATHS } from '../../wire/syncpostly/assumptions.js';
import { ERROR_CODE } from '../../wire/protocol.js';
import { HttpError } from '../http/reply.js';

/** The 401 message SyncPostly documents, word for word. */
export const SP_UNAUTHORIZED = 'Bearer Token missing or invalid';

export function dialectOf(path: string): Dialect {
  const api = path === '/api/v1' || path.startsWith('/api/v1/');
  const shared = path === SP_PATHS.postResults || path.startsWith(`${SP_PATHS.postResults}/`);
  return api && !shared ? 'syncpostly' : 'socialpub';
}

export interface SpIssue {
  path: (string | number)[];
  message: string;
  code: string;
}

/** An error with issues already in Zod's shape (from a schema, or mapped back from our rules). */
export class SpHttpError extends HttpError {
  constructor(
    status: 400 | 404 | 422,
    message: string,
    readonly spIssues: SpIssue[] = [],
  ) {
    super(status, status === 404 ? ERROR_CODE.notFound : status === 422 ? ERROR_CODE.validation : ERROR_CODE.badRequest, message);
  }
}

/** `payloads.bluesky.media.0.url` → ['payloads', 'bluesky', 'media', 0, 'url']. */
export function pathArray(path: string): (string | number)[] {
  return path === '' ? [] : path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export function spErrorBody(err: HttpError): { error: string; issues?: SpIssue[] } {
  const issues = err instanceof SpHttpError ? err.spIssues : (err.issues ?? []).map((i) => ({ path: pathArray(i.path), message: i.message, code: 'custom' }));
  return { error: err.message, ...(issues.length ? { issues } : {}) };
}
