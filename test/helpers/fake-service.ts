// A scripted service behind a Fetcher, for client tests that need answers the sandbox does not
// give (a 502 page, a Retry-After date, a reset connection). It records every request as sent,
// answers from the first declared route that matches (its answers in the order queued), and
// fails loudly on a request no route expects. Requests go through the client's own pipeline;
// only the socket is replaced.
import { STATUS_CODES } from 'node:http';
import { buffer } from 'node:stream/consumers';
import { isStreamBody, type Fetcher, type WireResponse } from '../../src/client/transport.js';

export interface SeenRequest {
  method: string;
  /** Path and query, as the server would see them. */
  path: string;
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string | undefined;
  /** The body's bytes exactly as sent. */
  bytes: Buffer | undefined;
}

export type Answer =
  /** An object body is sent as JSON, a string as it is. */
  | { status?: number; body?: unknown; headers?: Record<string, string> }
  /** The connection fails (reset, refused…). */
  | { error: Error };

export type Responder = Answer | ((request: SeenRequest) => Answer);

type PathMatch = string | ((path: string) => boolean);

export interface RouteSpec {
  /** Undefined: any method. */
  method?: string | undefined;
  path: PathMatch;
  /** Answers every matching request with its one responder (else each answer is used once). */
  always?: boolean;
  /**
   * Answers this much later, like a slow server: a responder function runs then, and sees the
   * state of that moment. The request's signal (timeout, Ctrl-C) cuts the wait short.
   */
  delayMs?: number | undefined;
}

interface Route extends RouteSpec {
  answers: Responder[];
}

export interface FakeService {
  fetch: Fetcher;
  /** Every request that reached the service, in order. */
  requests: SeenRequest[];
  /** Most requests open at once (sent, body not yet read). */
  readonly maxOpen: number;
  /** Queues answers for `method path` (method undefined: any), each used once, in order. */
  once(method: string | undefined, path: PathMatch, ...answers: Responder[]): FakeService;
  /** Answers every matching request that no route declared before it answers. */
  always(method: string | undefined, path: PathMatch, answer: Responder): FakeService;
  route(spec: RouteSpec, ...answers: Responder[]): FakeService;
}

export function fakeService(): FakeService {
  const routes: Route[] = [];
  const requests: SeenRequest[] = [];
  let open = 0;
  let maxOpen = 0;

  const matches = (route: Route, r: SeenRequest) =>
    (route.method === undefined || route.method === r.method) &&
    (typeof route.path === 'string' ? route.path === r.path : route.path(r.path)) &&
    (route.always || route.answers.length > 0);

  const fetch: Fetcher = async (url, request) => {
    const u = new URL(url);
    const body = request.body;
    // A file streamed from disk is read whole here: fakes see small files only.
    const bytes = body === undefined ? undefined : isStreamBody(body) ? await buffer(body.open()) : Buffer.from(body);
    const seen: SeenRequest = {
      method: request.method,
      path: u.pathname + u.search,
      url,
      headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v])),
      body: bytes?.toString('utf8'),
      bytes,
    };
    if (request.signal.aborted) throw abortError();
    requests.push(seen);
    const route = routes.find((r) => matches(r, seen));
    if (!route) throw new Error(`the fake service has no answer for ${seen.method} ${seen.path}`);
    const responder = route.always ? route.answers[0]! : route.answers.shift()!;
    open++;
    maxOpen = Math.max(maxOpen, open);
    let answer: Answer;
    try {
      if (route.delayMs) await delay(route.delayMs, request.signal);
      answer = typeof responder === 'function' ? responder(seen) : responder;
      if ('error' in answer) throw answer.error;
    } catch (err) {
      open--;
      throw err;
    }
    return response(answer, () => open--);
  };

  const service: FakeService = {
    fetch,
    requests,
    get maxOpen() {
      return maxOpen;
    },
    once: (method, path, ...answers) => service.route({ method, path }, ...answers),
    always: (method, path, answer) => service.route({ method, path, always: true }, answer),
    route(spec, ...answers) {
      routes.push({ ...spec, answers });
      return service;
    },
  };
  return service;
}

function response(answer: Exclude<Answer, { error: Error }>, done: () => void): WireResponse {
  const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const headers = answer.headers ?? {};
  let read = false;
  const status = answer.status ?? 200;
  return {
    status,
    statusText: STATUS_CODES[status] ?? '',
    headers: { forEach: (callback) => Object.entries(headers).forEach(([name, value]) => callback(value, name)) },
    text: async () => {
      if (!read) done();
      read = true;
      return text;
    },
  };
}

function abortError(): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** Waits like a slow network: the request's signal (timeout, Ctrl-C) cuts the wait short. */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
