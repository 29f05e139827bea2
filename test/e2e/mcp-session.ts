// An MCP session with the built binary: the SDK's own client over a real stdio pipe to
// `node bin/socialpub.js … mcp`, recording every message both ways and the server's stderr, so a
// test can scan the whole exchange for secrets.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BIN, ROOT } from './ensure-built.js';

export interface McpSession {
  client: Client;
  /** Every message, in order: "> " sent to the server, "< " received from it. */
  transcript: string[];
  stderr(): string;
  /** A tools/call; the result's structured content is what the tests read. */
  call(name: string, args?: Record<string, unknown>, onProgress?: (p: { progress: number; total?: number; message?: string }) => void): Promise<CallToolResult & { structuredContent: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function startSession(args: string[], env: Record<string, string>): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    cwd: ROOT,
    // Only what the test gives: no developer key, profile or CA settings leak in.
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
    stderr: 'pipe',
  });
  const transcript: string[] = [];
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    transcript.push(`> ${JSON.stringify(message)}`);
    return send(message);
  };
  // The client installs its handler on connect: record whatever it installs.
  let handler: ((m: JSONRPCMessage) => void) | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => handler,
    set: (h: ((m: JSONRPCMessage) => void) | undefined) => {
      handler = h && ((m: JSONRPCMessage) => {
        transcript.push(`< ${JSON.stringify(m)}`);
        h(m);
      });
    },
  });
  const client = new Client({ name: 'socialpub-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transcript,
    stderr: () => stderr,
    async call(name, callArgs = {}, onProgress) {
      const result = await client.callTool({ name, arguments: callArgs }, undefined, { ...(onProgress ? { onprogress: onProgress } : {}), timeout: 30_000 });
      return result as CallToolResult & { structuredContent: Record<string, unknown> };
    },
    close: () => client.close(),
  };
}
