// The transport under the pipeline. With a dispatcher (tests inject undici's MockAgent; a caller
// may pass a Pool) the npm undici's fetch is loaded, only then; otherwise node:http(s) with a
// keep-alive agent (see node-http.ts for why not the built-in fetch).
import type { Dispatcher } from 'undici';

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
  fetcher: () => Promise<Fetcher>;
  /** Releases kept-alive connections (the default transport's own agent). */
  close(): void;
}

export function createTransport(dispatcher: Dispatcher | undefined): Transport {
  let loaded: Promise<Fetcher> | undefined;
  let closeAgent: (() => void) | undefined;
  return {
    fetcher: () =>
      (loaded ??= dispatcher
        ? import('undici').then(({ fetch }) => (url, r) => fetch(url, { ...r, redirect: 'manual', dispatcher }) as Promise<WireResponse>)
        : import('./node-http.js')
            .then(({ nodeHttpTransport }) => nodeHttpTransport())
            .then((t) => {
              closeAgent = t.close;
              return t.fetch;
            })),
    close: () => closeAgent?.(),
  };
}
