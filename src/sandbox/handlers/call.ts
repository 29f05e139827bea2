// What a handler receives: the workspace of the key, path parameters, the query, the body.
import type { SandboxCore } from '../core.js';
import type { Workspace } from '../workspace.js';

export interface Call {
  core: SandboxCore;
  ws: Workspace;
  params: string[];
  query: URLSearchParams;
  /** Parsed JSON object body (routes that take JSON). */
  json: Record<string, unknown>;
  /** Raw body (routes that take bytes): all of it, or the first bytes the route keeps. */
  raw: Buffer;
  /** Bytes of raw body received. */
  rawSize: number;
  now: number;
}
