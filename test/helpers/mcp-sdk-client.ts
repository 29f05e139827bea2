// The official SDK client talking to `socialpub mcp` run in-process over a pair of pipes: the
// SDK's own newline-delimited JSON framing on both ends, as over a child's stdio, without a build.
// The client may declare elicitation and answer each question from a script, recording what it
// was asked.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { PassThrough } from 'node:stream';
import { main } from '../../src/main.js';
import type { ContextDeps } from '../../src/cli/create-context.js';
import { captureStream, tempConfigDir } from './run-cli.js';

/** The pipes of an in-process server, seen from the client's side. */
class PipeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}
  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }
  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

export interface SdkSession {
  client: Client;
  /** What the server asked the user through elicitation, in order. */
  asked: string[];
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult & { structuredContent: Record<string, any> }>;
  stderr(): string;
  /** Closes the client (stdin) and resolves with the command's exit code. */
  close(): Promise<number>;
}

export interface SdkSessionOptions {
  env: Record<string, string | undefined>;
  /** Declare elicitation and answer each question with this (in order; the last repeats). */
  elicit?: Array<ElicitResult['action'] | { action: 'accept'; content: Record<string, unknown> }>;
  clock?: ContextDeps['clock'];
}

export async function startSdkSession(argv: string[], options: SdkSessionOptions): Promise<SdkSession> {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  stdin.isTTY = false;
  const stdout = captureStream();
  const stderr = captureStream();
  const { dir, cleanup } = tempConfigDir();
  const done = main(['mcp', ...argv], {
    io: { stdin, stdout, stderr },
    env: { PATH: process.env.PATH, HOME: `${dir}/home`, SOCIALPUB_CONFIG_DIR: dir, NO_COLOR: '1', TZ: 'UTC', ...options.env },
    signal: new AbortController().signal,
    keyring: null,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const asked: string[] = [];
  const client = new Client({ name: 'socialpub-sdk-test', version: '1.0.0' }, { capabilities: options.elicit ? { elicitation: { form: {} } } : {} });
  if (options.elicit) {
    const answers = [...options.elicit];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const next = answers.length > 1 ? answers.shift()! : answers[0]!;
      return typeof next === 'string' ? (next === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: next }) : next;
    });
  }
  await client.connect(new PipeTransport(stdin, stdout));
  return {
    client,
    asked,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Record<string, any> },
    stderr: () => stderr.text(),
    async close() {
      await client.close();
      const code = await done;
      cleanup();
      return code;
    },
  };
}
