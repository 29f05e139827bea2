// The transport under the pipeline. With a dispatcher (tests inject undici's MockAgent; a caller
// may pass a Pool) the npm undici's fetch is loaded, only then; otherwise Node's built-in fetch,
// which costs nothing to import and keeps connections alive by default.
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

export function createTransport(dispatcher: Dispatcher | undefined): () => Promise<Fetcher> {
  let loaded: Promise<Fetcher> | undefined;
  return () =>
    (loaded ??= dispatcher
      ? import('undici').then(({ fetch }) => (url, r) => fetch(url, { ...r, redirect: 'manual', dispatcher }) as Promise<WireResponse>)
      : Promise.resolve<Fetcher>((url, r) => globalThis.fetch(url, { ...r, redirect: 'manual' })));
}
