// The ToolContext an MCP tool runs with in the integration tests: a real client on a workspace
// of the sandbox, its clock for time and sleep, and no media folders.
import { createClient } from '../../src/client/index.js';
import type { ToolContext } from '../../src/mcp/types.js';
import { checkArgs } from '../../src/mcp/json-schema.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { expect } from 'vitest';
import type { TestSandbox } from './sandbox.js';
import type { Dialect } from '../../src/wire/dialects.js';

export function sandboxToolContext(sb: TestSandbox, workspace: 'demo' | 'other' = 'demo', dialect: Dialect = 'socialpub'): ToolContext {
  const apiKey = sb.key(workspace);
  const signal = new AbortController().signal;
  return {
    signal,
    progress: async () => undefined,
    // The run functions alone, as with --allow-destructive: confirmation is tested through the server.
    confirm: async () => undefined,
    deps: {
      client: async () => createClient({ baseUrl: sb.url, apiKey, dialect, maxRetries: 0, now: sb.clock.now }),
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

export const mcpTool = (name: string) => TOOLS.find((t) => t.name === name)!;

/** Calls a tool as the server would: its arguments must pass its input schema first. */
export async function callTool(tc: ToolContext, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  expect(checkArgs(mcpTool(name).inputSchema, args)).toEqual([]);
  return mcpTool(name).run(args, tc);
}
