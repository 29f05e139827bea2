// What an MCP tool's run function gets, for tests that call tools against a sandbox over HTTP: a
// real client on the demo key, the sandbox's manual clock for time and sleep, no progress sink.
import { createClient } from '../../src/client/index.js';
import type { ToolContext } from '../../src/mcp/types.js';
import type { TestSandbox } from './sandbox.js';

export function sandboxToolContext(sb: TestSandbox): ToolContext {
  const apiKey = sb.key('demo');
  const signal = new AbortController().signal;
  return {
    signal,
    progress: async () => undefined,
    // The run functions alone, as with --allow-destructive: confirmation is tested through the server (mcp-confirm.test.ts).
    confirm: async () => undefined,
    deps: {
      client: async () => createClient({ baseUrl: sb.url, apiKey, maxRetries: 0, now: sb.clock.now }),
      profileName: 'default',
      secrets: [apiKey],
      mediaDirs: [],
      now: () => sb.clock.now(),
      sleep: (ms) => sb.clock.advance(ms),
      signal,
      stdin: process.stdin,
      stdout: process.stdout,
      log: () => undefined,
      readOnly: false,
      version: 'test',
    },
  };
}
