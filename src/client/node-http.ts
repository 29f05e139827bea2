// The default transport: node:http(s) with a keep-alive agent. Node 20's built-in fetch costs
// about 120 ms on its first call (it compiles its own undici), more than a whole command should;
// http.request answers the same requests in a few milliseconds.
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import type { Fetcher, WireResponse } from './transport.js';

export interface NodeHttpTransport {
  fetch: Fetcher;
  close(): void;
}

export async function nodeHttpTransport(): Promise<NodeHttpTransport> {
  const http = await import('node:http');
  // https (with tls and crypto, several milliseconds) loads only for an https URL.
  const https = () => process.getBuiltinModule('node:https');
  const agents: { http?: HttpAgent; https?: HttpAgent } = {};
  const agentFor = (protocol: string): HttpAgent =>
    protocol === 'https:' ? (agents.https ??= new (https().Agent)({ keepAlive: true })) : (agents.http ??= new http.Agent({ keepAlive: true }));

  const fetch: Fetcher = (url, request) =>
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

  return {
    fetch,
    close() {
      agents.http?.destroy();
      agents.https?.destroy();
    },
  };
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
