// The SDK's stdio transport with every line checked before it sees it. Left alone, it drops a line
// that is not JSON or not JSON-RPC without a reply (the client waits forever), and a request
// whose params do not fit the method's schema comes back as -32603 with a multi-line zod dump.
// Here each such line gets the answer JSON-RPC 2.0 prescribes, in one line: -32700 (parse error,
// id null), -32600 (invalid request, and any request but ping before initialize) or -32602
// (invalid params). Lines that pass go to the SDK's
// transport unchanged, and everything sent passes through `outbound` (redaction).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** The longest line taken, as the SDK's own transport allows. */
const MAX_LINE_CHARS = 10 * 1024 * 1024;

/** A request schema of the SDK (CallToolRequestSchema, …): only safeParse is used. */
export interface RequestSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

type Id = string | number | null;

export class CheckedStdioTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];
  private readonly checked = new PassThrough();
  private readonly inner: StdioServerTransport;
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  /** Inside a line that was too long: dropped up to its end. */
  private skipping = false;
  /** An initialize request went through: other requests are taken from now on. */
  private initialized = false;

  constructor(
    private readonly stdin: Readable,
    stdout: Writable,
    /** Params schemas by method, for the methods the server handles. */
    private readonly requests: Readonly<Record<string, RequestSchema>>,
    private readonly outbound: (message: JSONRPCMessage) => JSONRPCMessage = (m) => m,
  ) {
    this.inner = new StdioServerTransport(this.checked, stdout);
    this.inner.onmessage = (message: JSONRPCMessage) => this.onmessage?.(message);
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
  }

  async start(): Promise<void> {
    await this.inner.start();
    this.stdin.on('data', this.onData);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(this.outbound(message));
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    // As the SDK's own transport does: a stdin nobody reads any more must not keep the process alive.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    await this.inner.close();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.pending += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    for (let nl = this.pending.indexOf('\n'); nl >= 0; nl = this.pending.indexOf('\n')) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      if (this.skipping) this.skipping = false;
      else this.check(line.replace(/\r$/, ''));
    }
    if (this.pending.length > MAX_LINE_CHARS) {
      this.pending = '';
      if (!this.skipping) this.refuse(null, ErrorCode.InvalidRequest, `Invalid request: a message longer than ${MAX_LINE_CHARS} characters`);
      this.skipping = true;
    }
  };

  private check(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.refuse(null, ErrorCode.ParseError, 'Parse error: the message is not valid JSON');
    }
    if (!JSONRPCMessageSchema.safeParse(value).success) return this.refuse(idOf(value), ErrorCode.InvalidRequest, `Invalid request: ${whatIsWrong(value)}`);
    const { id, method } = value as { id?: Id; method?: string };
    // Before initialize the session has no protocol version or capabilities: only ping is answered.
    if (method !== undefined && id !== undefined && !this.initialized && method !== 'initialize' && method !== 'ping') {
      return this.refuse(id, ErrorCode.InvalidRequest, `Invalid request: ${method} before initialize; send initialize first`);
    }
    const schema = method !== undefined && id !== undefined && Object.hasOwn(this.requests, method) ? this.requests[method] : undefined;
    const parsed = schema?.safeParse(value);
    if (parsed && !parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.map(String).join('.') || 'params';
      return this.refuse(id ?? null, ErrorCode.InvalidParams, `Invalid params for ${method}: ${where}: ${issue?.message ?? 'does not fit the method'}`);
    }
    if (method === 'initialize' && id !== undefined) this.initialized = true;
    this.checked.write(`${line}\n`);
  }

  private refuse(id: Id, code: ErrorCode, message: string): void {
    this.onerror?.(new Error(message));
    // JSON-RPC answers a message whose id cannot be read with id null; the SDK's type leaves id optional.
    const reply = { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
    this.send(reply).catch((err: unknown) => this.onerror?.(err instanceof Error ? err : new Error(String(err))));
  }
}

function idOf(value: unknown): Id {
  const id = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

function whatIsWrong(value: unknown): string {
  if (Array.isArray(value)) return 'batches are not supported; send one JSON-RPC object per line';
  if (value === null || typeof value !== 'object') return 'expected a JSON-RPC 2.0 object';
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  if (!('method' in m) && !('result' in m) && !('error' in m)) return '"method" is missing';
  if ('method' in m && typeof m.method !== 'string') return '"method" must be a string';
  return 'not a JSON-RPC 2.0 request, notification or response';
}
