// SyncPostly's 404 is `{ error: "..." }`, without our NOT_FOUND code; on a route it documents, it
// means "does not exist or not in this workspace" (assumptions.errors), not "no such route": the
// error gets the code, so commands say "not found" (exit 4) and never "this service cannot".
import { ERROR_CODE } from '../../wire/protocol.js';
import { NotFoundError } from '../errors.js';

export async function documentedRoute<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw asNotFound(err);
  }
}

export function asNotFound(err: unknown): unknown {
  if (!(err instanceof NotFoundError) || err.code === ERROR_CODE.notFound) return err;
  return new NotFoundError(err.message, { status: err.status ?? 404, code: ERROR_CODE.notFound, requestId: err.requestId, body: err.body, issues: err.issues, cause: err });
}
