// The MCP server on stdio: lists the tools, checks each call's arguments against the tool's JSON
// Schema, runs it, and answers with its structured result or a tool error (never a crash).
// Everything that leaves — protocol messages and log lines — passes through redaction first.
// It ends when stdin closes or the signal (Ctrl-C) fires.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from '../client/types.js';
import { InvalidInputError } from '../wire/invalid-input.js';
import { errorText, ToolError, toToolError, type ToolErrorBody } from './errors.js';
import { checkArgs } from './json-schema.js';
// The last filter before anything leaves the server (every protocol message and log line): the key
// in use, `whsec_` secrets and credentials in URLs are masked; nothing else (a post that says
// "secret: SPRING25" comes back as written, or an assistant re-posting it would publish the damage).
import { maskEchoed, maskEchoedValue } from '../client/redact.js';
import { CheckedStdioTransport } from './stdio-transport.js';
import { TOOLS, toolsFor } from './tools/index.js';
import { PROGRESS_EVERY_MS } from './tools/wait-for-results.js';
import type { McpDeps, ToolContext, ToolDefinition } from './types.js';

/**
 * Every call answers within this long, retries and all: the official SDK client gives up on a
 * request after 60 s, and an answer it no longer waits for is lost.
 */
export const CALL_DEADLINE_MS = 48_000;

/**
 * The largest answer sent. The official SDK client drops the whole connection on a message over
 * 10 MiB (its read buffer's limit), so one oversized answer would end every later call too.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** What the assistant reads on connecting, naming the tools this server really offers. */
export function instructions(tools: readonly ToolDefinition[], readOnly: boolean): string {
  const writes = tools.filter((t) => t.write).map((t) => t.name);
  return [
    "socialpub publishes posts to social platforms through one workspace (the profile's).",
    readOnly
      ? 'This server is read-only (started with --read-only): it can check, list, read and wait, but not create, change, schedule or delete posts; the user can start it without --read-only to allow that.'
      : `Write tools (${writes.join(', ')}) validate first, accept dry_run, and are safe to repeat: the same call never posts twice. delete_post cannot be undone: confirm with the user first.`,
    'Times are absolute: RFC 3339 with an offset, or "YYYY-MM-DD HH:MM" with time_zone; compute dates yourself.',
    'Lists return at most 50 rows and a next_cursor. Every call answers within 50 s; wait_for_results returns still_waiting: true after 40 s, call it again to keep waiting. Errors carry a code: invalid_input (with the field), auth, not_found, rate_limited (with retryAt), network, error.',
  ].join('\n');
}

export function describeTool(t: ToolDefinition) {
  return { name: t.name, title: t.annotations.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations };
}

function errorResult(body: ToolErrorBody): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: errorText(body) }], structuredContent: { ...body } };
}

/** The first argument whose value holds a secret, if any. */
function argumentWithSecret(args: Record<string, unknown>, secrets: readonly string[]): string | undefined {
  return Object.keys(args).find((name) => secrets.some((secret) => secret.length >= 8 && (JSON.stringify(args[name]) ?? '').includes(secret)));
}

/** Whether the call names local media files, which it uploads before anything else. */
function uploadsLocalFiles(args: Record<string, unknown>): boolean {
  return Array.isArray(args.media) && args.media.some((m) => typeof m === 'string' && !/^https?:\/\//i.test(m.trim()));
}

/**
 * Any call that runs long (a slow service, a Retry-After slept through) tells the client it is
 * still at work when nothing else was sent for PROGRESS_EVERY_MS: progress is the share of the
 * call's deadline gone by. A tool with progress of its own (wait_for_results) keeps the gaps
 * short itself and has no heartbeat: two voices at once would flip the message back and forth.
 */
async function heartbeat(h: { deps: McpDeps; tc: ToolContext; started: number; lastSentAt: () => number; until: AbortSignal }): Promise<void> {
  const { deps, tc, started, until } = h;
  let lastTry = started;
  while (!until.aborted) {
    try {
      await deps.sleep(Math.max(1, Math.max(h.lastSentAt(), lastTry) + PROGRESS_EVERY_MS - deps.now()), until);
    } catch {
      return;
    }
    const now = deps.now();
    if (until.aborted || now - Math.max(h.lastSentAt(), lastTry) < PROGRESS_EVERY_MS) continue;
    lastTry = now;
    const share = Math.min(0.99, (now - started) / CALL_DEADLINE_MS);
    await tc.progress(Math.round(share * 1000) / 1000, undefined, `still working (${Math.round((now - started) / 1000)} s)`).catch(() => undefined);
  }
}

/** An answer too large to send: said, with what to do, instead of cutting the service's data. */
function tooLarge(tool: ToolDefinition, bytes: number): ToolError {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const lists = tool.inputSchema.properties?.limit !== undefined;
  return new ToolError({
    code: 'error',
    message: `${tool.name}: the answer is ${mb(2 * bytes)}, more than one message to an assistant may hold (${mb(MAX_ANSWER_BYTES)}); the service sent unusually large fields, and nothing was returned`,
    hints: [lists ? 'call again with a smaller limit' : 'ask the user to look at it with the command line (`socialpub … --json`), which prints it in full'],
  });
}

export async function startMcpServer(deps: McpDeps): Promise<void> {
  const log = (line: string) => deps.log(maskEchoed(line, deps.secrets));
  const tools = toolsFor(deps.readOnly);
  const byName = new Map(tools.map((t) => [t.name, t]));
  // Fires when the server stops (stdin closed, Ctrl-C): calls still waiting end with it.
  const stopping = new AbortController();
  const server = new Server({ name: 'socialpub', version: deps.version }, { capabilities: { tools: {} }, instructions: instructions(tools, deps.readOnly) });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map(describeTool) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    const tool = byName.get(name);
    if (!tool) {
      const readOnly = deps.readOnly && TOOLS.some((t) => t.name === name);
      return errorResult({
        code: 'invalid_input',
        field: 'name',
        message: readOnly ? `${name} is not available: this server runs with --read-only` : `no tool named ${name}`,
        hints: [readOnly ? 'start `socialpub mcp` without --read-only to allow writes' : `the tools are ${tools.map((t) => t.name).join(', ')}`],
      });
    }
    const args = request.params.arguments ?? {};
    const issues = checkArgs(tool.inputSchema, args);
    if (issues.length) return errorResult(toToolError(new InvalidInputError(issues), deps.profileName));
    const leak = argumentWithSecret(args, deps.secrets);
    if (leak) {
      // An assistant talked into posting the key would publish it: refuse before anything is sent.
      return errorResult({ code: 'invalid_input', field: leak, message: `${leak}: contains the API key of this profile; nothing was sent`, hints: ['remove the key from the arguments; it must never be published'] });
    }

    const token = request.params._meta?.progressToken;
    let lastProgress = -Infinity;
    let lastSentAt = deps.now();
    // The call's own deadline ends its requests, retry waits and sleeps; the answer is a tool error.
    const late = new AbortController();
    const finished = new AbortController();
    const signal = AbortSignal.any([extra.signal, deps.signal, stopping.signal, late.signal]);
    let client: Promise<ApiClient> | undefined;
    const tc: ToolContext = {
      deps: { ...deps, client: () => (client ??= deps.client(signal)) },
      signal,
      async progress(progress, total, message) {
        // The protocol wants progress to grow with each notification: repeats are left out.
        if (token === undefined || progress <= lastProgress) return;
        lastProgress = progress;
        lastSentAt = deps.now();
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, ...(total !== undefined ? { total } : {}), message } });
      },
    };
    const deadlineError = new ToolError({
      code: 'network',
      message: `${name} did not finish within ${CALL_DEADLINE_MS / 1000} s: the service is slow or not answering`,
      hints: [
        // Calling again would upload the same bytes again, and run out of time again.
        ...(uploadsLocalFiles(args) ? [`local media is uploaded within the call: a large file may not fit in one, however often it is called; then give it as an https:// URL, or ask the user to post it with the command line (\`socialpub posts create --media FILE\`), which has no such limit`] : []),
        tool.write ? 'call again in a while: the same call never posts twice' : 'call again in a while',
      ],
    });
    const deadline = new Promise<never>((_resolve, reject) => {
      deps.sleep(CALL_DEADLINE_MS, finished.signal).then(
        () => {
          late.abort(deadlineError);
          reject(deadlineError);
        },
        () => undefined,
      );
    });
    const started = deps.now();
    if (token !== undefined && !tool.ownProgress) void heartbeat({ deps, tc, started, lastSentAt: () => lastSentAt, until: finished.signal });
    try {
      const result = await Promise.race([tool.run(args, tc), deadline]);
      // Compact: the same object travels twice (text for older clients, structured for newer ones).
      const text = JSON.stringify(result);
      if (2 * Buffer.byteLength(text) > MAX_ANSWER_BYTES) throw tooLarge(tool, Buffer.byteLength(text));
      log(`${name}: ok (${deps.now() - started} ms)`);
      return { content: [{ type: 'text', text }], structuredContent: result };
    } catch (err) {
      const body = toToolError(late.signal.aborted ? deadlineError : err, deps.profileName);
      log(`${name}: ${body.code}: ${body.message.split('\n')[0]}`);
      return errorResult(body);
    } finally {
      finished.abort();
      if (client) await client.then((c) => c.close()).catch(() => undefined);
    }
  });

  // The one way out to the assistant: every message is redacted on its way.
  const requests = { initialize: InitializeRequestSchema, 'tools/list': ListToolsRequestSchema, 'tools/call': CallToolRequestSchema };
  const transport = new CheckedStdioTransport(deps.stdin as Readable, deps.stdout as Writable, requests, (message) => maskEchoedValue(message, deps.secrets));
  transport.onerror = (err) => log(`protocol error: ${err.message}`);

  await server.connect(transport);
  log(`serving ${tools.length} tools for profile ${deps.profileName}${deps.readOnly ? ' (read-only)' : ''} on stdio`);
  await new Promise<void>((resolve) => {
    if (deps.signal.aborted) return resolve();
    deps.stdin.once('end', resolve);
    deps.stdin.once('close', resolve);
    deps.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  stopping.abort();
  await server.close();
}
