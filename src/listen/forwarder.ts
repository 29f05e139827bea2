// Forwards accepted deliveries to a local app: raw body and signature headers unchanged, a
// timeout per attempt, retries with doubling backoff. The sender has already been answered
// when a forward starts, so a slow or failing app can never hold up the listener or make the
// sender retry; forwards start in arrival order, a few at a time, from a bounded queue. Every
// wait (backoff, per-attempt timeout, close grace) is on the listener's clock.
import http from 'node:http';
import https from 'node:https';
import type { ListenerClock } from './clock.js';
import type { ForwardSubject } from './types.js';

export interface ForwardJob extends ForwardSubject {
  body: Buffer;
  headers: Record<string, string>;
}

export interface ForwardOutcome extends ForwardSubject {
  attempts: number;
  ms: number;
  status?: number;
  /** Set when the forward failed. */
  error?: string;
}

export interface ForwarderOptions {
  url: URL;
  clock: ListenerClock;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  concurrency: number;
  queueLimit: number;
  onDone(outcome: ForwardOutcome): void;
}

const MAX_BACKOFF_MS = 5000;

type AttemptResult = { status: number } | { error: string; retry: boolean };

export class Forwarder {
  private readonly queue: ForwardJob[] = [];
  private active = 0;
  private closed = false;
  private readonly abort = new AbortController();
  private readonly agent: http.Agent;
  private readonly idle = new Set<() => void>();

  constructor(private readonly options: ForwarderOptions) {
    const Agent = options.url.protocol === 'https:' ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  }

  get pending(): number {
    return this.queue.length + this.active;
  }

  enqueue(job: ForwardJob): void {
    if (this.closed) return this.notStarted(job, 'listener is closing');
    if (this.queue.length >= this.options.queueLimit) return this.notStarted(job, `forward queue full (${this.options.queueLimit} waiting)`);
    this.queue.push(job);
    this.pump();
  }

  /** Lets queued forwards finish for up to graceMs, then abandons the rest. */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    if (this.pending > 0) {
      let cancel = () => {};
      await Promise.race([
        new Promise<void>((resolve) => this.idle.add(resolve)),
        new Promise<void>((resolve) => (cancel = this.options.clock.after(graceMs, resolve))),
      ]);
      cancel();
    }
    for (const job of this.queue.splice(0)) this.notStarted(job, 'listener closed before the forward started');
    this.abort.abort();
    this.agent.destroy();
  }

  private notStarted(job: ForwardJob, error: string): void {
    this.options.onDone({ ...subjectOf(job), attempts: 0, ms: 0, error });
  }

  private pump(): void {
    while (this.active < this.options.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.active++;
      void this.run(job).then((outcome) => {
        this.active--;
        // onDone never throws: the listener's emit hands consumers' exceptions on (safeEmitter in outcomes.ts).
        this.options.onDone(outcome);
        if (this.pending === 0) for (const resolve of this.idle) resolve();
        this.pump();
      });
    }
  }

  private async run(job: ForwardJob): Promise<ForwardOutcome> {
    const { clock, retries, backoffMs } = this.options;
    const started = clock.now();
    let last: AttemptResult = { error: 'not attempted', retry: false };
    let attempts = 0;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0) {
        const delay = Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** (attempt - 1));
        if (!(await this.sleep(delay))) break;
      }
      attempts++;
      last = await this.attempt(job);
      if ('status' in last && !retryableStatus(last.status)) break;
      if ('error' in last && !last.retry) break;
    }
    const done = { ...subjectOf(job), attempts, ms: Math.round(clock.now() - started) };
    if ('status' in last && !retryableStatus(last.status)) return { ...done, status: last.status };
    if ('status' in last) return { ...done, status: last.status, error: `the app answered ${last.status}` };
    return { ...done, error: last.error };
  }

  /** False when the listener closed during the pause (checked after it too: a clock may end a sleep without looking at the signal). */
  private sleep(ms: number): Promise<boolean> {
    return this.options.clock.sleep(ms, this.abort.signal).then(
      () => !this.abort.signal.aborted,
      () => false,
    );
  }

  private attempt(job: ForwardJob): Promise<AttemptResult> {
    const { url, timeoutMs } = this.options;
    return new Promise((resolve) => {
      let settled = false;
      const settle = (r: AttemptResult) => {
        if (settled) return;
        settled = true;
        cancelDeadline();
        this.abort.signal.removeEventListener('abort', onAbort);
        resolve(r);
      };
      const request = url.protocol === 'https:' ? https.request : http.request;
      const req = request(url, {
        method: 'POST',
        agent: this.agent,
        headers: { ...job.headers, 'content-length': String(job.body.length), 'user-agent': 'socialpub-listen' },
      });
      const cancelDeadline = this.options.clock.after(timeoutMs, () => {
        settle({ error: `no answer within ${timeoutMs} ms`, retry: true });
        req.destroy();
      });
      const onAbort = () => {
        settle({ error: 'listener closed before the app answered', retry: false });
        req.destroy();
      };
      this.abort.signal.addEventListener('abort', onAbort, { once: true });
      req.on('response', (res) => {
        // The status is the answer; the body is drained and dropped.
        res.on('error', () => {});
        res.resume();
        settle({ status: res.statusCode ?? 0 });
      });
      req.on('error', (err: NodeJS.ErrnoException) => settle({ error: describeNetworkError(err, url), retry: true }));
      req.end(job.body);
    });
  }
}

function subjectOf(job: ForwardJob): ForwardSubject {
  return { webhookId: job.webhookId, ...(job.postId !== undefined ? { postId: job.postId } : {}), ...(job.platform !== undefined ? { platform: job.platform } : {}) };
}

function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function describeNetworkError(err: NodeJS.ErrnoException, url: URL): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${url.host} (is the app running?)`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the app at ${url.host} closed the connection`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve ${url.hostname}`;
    default:
      return `${err.code ?? 'error'}: ${err.message}`;
  }
}
