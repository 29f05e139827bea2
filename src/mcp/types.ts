// What the MCP server needs from whoever starts it (the `socialpub mcp` command builds these
// from its Context), and the shape of one tool.
import type { ApiClient } from '../client/types.js';
import type { UploadLedger } from '../posts/uploads.js';
import type { Dialect } from '../wire/dialects.js';
import type { DestructiveChange } from './confirm.js';
import type { JsonSchema, SchemaDialect } from './json-schema.js';

export interface McpDeps {
  /**
   * The API client of the resolved profile; rejects with a ToolError (auth) when there is no key.
   * With a signal: a client of its own whose requests and retry waits that signal ends (the caller closes it).
   */
  client(signal?: AbortSignal): Promise<ApiClient>;
  /** The profile's name, for messages ("no result X in the workspace of profile P"). */
  profileName: string;
  /** Values masked out of everything the server sends or logs (the key). */
  secrets: readonly string[];
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Ctrl-C: ends the server. */
  signal: AbortSignal;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** One line to stderr (never stdout: that is the protocol). */
  log(line: string): void;
  /** The API the profile speaks (SOCIALPUB_API or the profile's), for what the instructions promise; default socialpub. */
  dialect?: Dialect | undefined;
  /** Leave the write tools out. */
  readOnly: boolean;
  /** Drafts only: nothing is scheduled, moved or deleted (those tools are left out; scheduled posts are not edited). */
  draftsOnly?: boolean;
  /** The host confirms every call itself: destructive changes need no confirmation here. */
  allowDestructive?: boolean;
  /** How input schemas say "optional" (default strict: null unions, every property required). */
  schemaDialect?: SchemaDialect;
  /** Folders (links resolved) local media may come from; empty: URLs only. */
  mediaDirs: readonly string[];
  /** What this profile uploaded before (the CLI's record): the same bytes are not sent again (contract 7.4). */
  ledger?: UploadLedger;
  version: string;
}

/** What a tool's run function gets besides its arguments. */
export interface ToolContext {
  /** deps.client() here is the call's own client, ended by `signal`. */
  deps: McpDeps;
  /** Fires when the client cancels the call or the server stops. */
  signal: AbortSignal;
  /** Reports progress when the caller asked for it (a progressToken); otherwise does nothing. */
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
  /**
   * Before a destructive change: undefined to go ahead (confirmed, or --allow-destructive);
   * otherwise the answer to return instead, having sent nothing (a preview with a confirm_token,
   * or the user's no). A confirm_token that does not fit the change throws invalid_input.
   */
  confirm(change: DestructiveChange): Promise<Record<string, unknown> | undefined>;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
  /** A write tool (left out with --read-only). */
  write: boolean;
  /** Schedules, moves or deletes (left out with --drafts-only). */
  scheduling?: boolean;
  /** Sends progress at least every PROGRESS_EVERY_MS itself: the server's heartbeat stays quiet. */
  ownProgress?: boolean;
  /** Arguments already checked against inputSchema. Returns the structured result. */
  run(args: Record<string, unknown>, tc: ToolContext): Promise<Record<string, unknown>>;
}
