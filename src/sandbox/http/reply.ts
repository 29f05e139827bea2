// What handlers return, and the error they throw: the contract's error body
// `{ error: { code, message, issues? }, requestId }` is built from it in one place.
import { ERROR_CODE } from '../../wire/protocol.js';
import type { StorageError } from '../db/errors.js';
import type { Issue } from '../validation.js';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function errorBody(code: string, message: string, requestId: string, issues?: Issue[]) {
  return { error: { code, message, ...(issues && issues.length ? { issues } : {}) }, requestId };
}

export const badRequest = (message: string, issues?: Issue[]) => new HttpError(400, ERROR_CODE.badRequest, message, issues);
export const validationError = (issues: Issue[]) =>
  new HttpError(422, ERROR_CODE.validation, issues.length === 1 ? `${issues[0]!.path}: ${issues[0]!.message}` : `${issues.length} problems with the request; see issues`, issues);
export const notFound = (what: string, id: string) => new HttpError(404, ERROR_CODE.notFound, `${what} ${JSON.stringify(id)} not found`);

/** A change the database could not commit: 507 when the disk is full, else 500; the contract's error body either way. */
export const storageHttpError = (err: StorageError) => new HttpError(err.full ? 507 : 500, ERROR_CODE.internal, err.message);
