// `socialpub mcp` run in-process on a pair of pipes: the test writes JSON-RPC lines (or any bytes)
// to its stdin and reads each line it writes to stdout, as an assistant's host does over stdio.
// Raw lines, not the SDK client, so tests can send what a well-behaved client never would.
import { PassThrough } from 'node:stream';
import { main } from '../../src/main.js';
import { captureStream, tempConfigDir } from './run-cli.js';

export interface McpPipe {
  /** Writes one line (an object is JSON-encoded) to the server's stdin. */
  write(line: string | Record<string, unknown>): void;
  /** The next message the server writes, parsed. */
  next(): Promise<Record<string, unknown>>;
  /** Sends a request with this id and resolves with the reply carrying the same id. */
  request(id: number, method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** initialize + notifications/initialized. */
  initialize(): Promise<void>;
  /** A tools/call; resolves with its result (or error) message. */
  call(id: number, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  stderr(): string;
  /** Every line the server wrote so far, as written (to measure an answer's real size). */
  lines(): readonly string[];
  /** Closes stdin and resolves with the exit code. */
  close(): Promise<number>;
}

export function startMcpPipe(argv: string[], env: Record<string, string | undefined>, options: { stdinIsTTY?: boolean } = {}): McpPipe {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = options.stdinIsTTY ?? false;
  const stdout = captureStream();
  const stderr = captureStream();
  const { dir, cleanup } = tempConfigDir();
  const done = main(['mcp', ...argv], {
    io: { stdin, stdout, stderr },
    env: { PATH: process.env.PATH, HOME: `${dir}/home`, SOCIALPUB_CONFIG_DIR: dir, NO_COLOR: '1', ...env },
    signal: new AbortController().signal,
    keyring: null,
  });

  const queue: Record<string, unknown>[] = [];
  const waiting: Array<(m: Record<string, unknown>) => void> = [];
  let buffer = '';
  const lines: string[] = [];
  stdout.on('data', (chunk: Buffer | string) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim() === '') continue;
      lines.push(line);
      const message = JSON.parse(line) as Record<string, unknown>;
      const w = waiting.shift();
      if (w) w(message);
      else queue.push(message);
    }
  });
  const next = () => new Promise<Record<string, unknown>>((resolve) => (queue.length ? resolve(queue.shift()!) : waiting.push(resolve)));
  const write = (line: string | Record<string, unknown>) => stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);

  const pipe: McpPipe = {
    write,
    next,
    async request(id, method, params) {
      write({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
      for (;;) {
        const m = await next();
        if (m.id === id) return m;
      }
    },
    async initialize() {
      await pipe.request(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe-test', version: '1.0.0' } });
      write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    },
    call: (id, name, args) => pipe.request(id, 'tools/call', { name, arguments: args }),
    stderr: () => stderr.text(),
    lines: () => lines,
    async close() {
      stdin.end();
      const code = await done;
      cleanup();
      return code;
    },
  };
  return pipe;
}
