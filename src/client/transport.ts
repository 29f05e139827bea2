// The one transport under the request pipeline, in production and in tests: node:http(s) with a
// keep-alive agent. Not undici, neither the npm package (46–113 ms to import) nor Node 20's
// built-in fetch (~120 ms on its first call, compiling its own undici): either costs more than a
// whole command, and the start-up targets (`results get` within 1.6× a bare node:http GET script)
// were measured on node:http. A caller may inject its own Fetcher (tests script answers with one);
// that is the only seam.
import type * as NodeHttp from 'node:http';
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * The most a response body may hold. A JSON page of 100 rows is a few hundred KiB; a server that
 * sends more (or never stops) is refused before it can fill the memory of a long-running process.
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** A response body passed MAX_BODY_BYTES (declared or received); the rest was not read. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the response body is larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** A streamed body's source failed (the file went away, or cannot be read): no retry can help. */
export class BodySourceError extends Error {
  constructor(cause: Error) {
    super(`could not read what was being sent: ${cause.message}`, { cause });
    this.name = 'BodySourceError';
  }
}

export interface WireResponse {
  status: number;
  statusText: string;
  headers: { forEach(callback: (value: string, name: string) => void): void };
  text(): Promise<string>;
}

/**
 * A body read from its source on every attempt (a file on disk): a retry sends the same bytes,
 * and no attempt holds them in memory, whatever their size.
 */
export interface StreamBody {
  size: number;
  open(): Readable;
}

export type WireBody = string | Uint8Array | StreamBody;

export function isStreamBody(body: WireBody | undefined): body is StreamBody {
  return typeof body === 'object' && !(body instanceof Uint8Array);
}

export interface WireRequest {
  method: string;
  headers: Record<string, string>;
  body: WireBody | undefined;
  signal: AbortSignal;
}

export type Fetcher = (url: string, request: WireRequest) => Promise<WireResponse>;

export interface Transport {
  /** node:http loads on the first request, not with the client. */
  fetcher: () => Promise<Fetcher>;
  /** Releases kept-alive connections (the default transport's own agents; an injected Fetcher's are its owner's). */
  close(): void;
}

export function createTransport(injected: Fetcher | undefined): Transport {
  if (injected) return { fetcher: () => Promise.resolve(injected), close: () => {} };
  let loaded: Promise<Fetcher> | undefined;
  let agents: Agents | undefined;
  return {
    fetcher: () =>
      (loaded ??= import('node:http').then((http) => {
        agents = {};
        return nodeHttpFetcher(http, agents);
      })),
    close() {
      agents?.http?.destroy();
      agents?.https?.destroy();
    },
  };
}

interface Agents {
  http?: HttpAgent;
  https?: HttpAgent;
}

function nodeHttpFetcher(http: typeof NodeHttp, agents: Agents): Fetcher {
  // https (with tls and crypto, several milliseconds) loads only for an https URL.
  const https = () => process.getBuiltinModule('node:https');
  const agentFor = (protocol: string): HttpAgent =>
    protocol === 'https:' ? (agents.https ??= new (https().Agent)({ keepAlive: true })) : (agents.http ??= new http.Agent({ keepAlive: true }));

  return (url, request) =>
    new Promise<WireResponse>((resolve, reject) => {
      const target = new URL(url);
      const { body } = request;
      const headers: Record<string, string | number> = { ...request.headers };
      if (body !== undefined) headers['content-length'] = isStreamBody(body) ? body.size : Buffer.byteLength(body);
      const send = target.protocol === 'https:' ? https().request : http.request;
      const req = send(target, { method: request.method, headers, agent: agentFor(target.protocol), signal: request.signal }, (res: IncomingMessage) => {
        resolve(wireResponse(res));
      });
      let unreadable: Error | undefined;
      req.on('error', (err) => reject(unreadable ? new BodySourceError(unreadable) : err));
      if (isStreamBody(body)) {
        // A stream goes up as the socket takes it; a failure on either side closes both (and the file).
        const source = body.open();
        source.once('error', (err) => (unreadable = err));
        process.getBuiltinModule('node:stream').pipeline(source, req, () => {});
      } else req.end(body);
    });
}

function wireResponse(res: IncomingMessage): WireResponse {
  return {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    headers: {
      forEach(callback) {
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) callback(Array.isArray(value) ? value.join(', ') : value, name);
        }
      },
    },
    text: () =>
      new Promise<string>((resolve, reject) => {
        const tooLarge = () => {
          // Settled first: destroying may report the cut-off at once. Destroying closes the
          // socket, so nothing more is read from a server that never stops.
          reject(new BodyTooLargeError(MAX_BODY_BYTES));
          res.destroy();
        };
        if (Number(res.headers['content-length']) > MAX_BODY_BYTES) return tooLarge();
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            chunks.length = 0;
            tooLarge();
          } else chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
        res.on('aborted', () => reject(Object.assign(new Error('the response was cut off'), { code: 'ECONNRESET' })));
      }),
  };
}
