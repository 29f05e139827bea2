// The one transport under the request pipeline, in production and in tests: node:http(s) with a
// keep-alive agent. Not undici, neither the npm package (46–113 ms to import) nor Node 20's
// built-in fetch (~120 ms on its first call, compiling its own undici): either costs more than a
// whole command, and the start-up targets (`results get` within 1.6× a bare node:http GET script)
// were measured on node:http. A caller may inject its own Fetcher (tests script answers with one);
// that is the only seam.
import type * as NodeHttp from 'node:http';
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';

export interface WireResponse {
  status: number;
  statusText: string;
  headers: { forEach(callback: (value: string, name: string) => void): void };
  text(): Promise<string>;
}

export interface WireRequest {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
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
      const headers: Record<string, string | number> = { ...request.headers };
      if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
      const send = target.protocol === 'https:' ? https().request : http.request;
      const req = send(target, { method: request.method, headers, agent: agentFor(target.protocol), signal: request.signal }, (res: IncomingMessage) => {
        resolve(wireResponse(res));
      });
      req.on('error', reject);
      req.end(request.body);
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
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
        res.on('aborted', () => reject(Object.assign(new Error('the response was cut off'), { code: 'ECONNRESET' })));
      }),
  };
}
