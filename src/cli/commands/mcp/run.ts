// `mcp`, run: resolves the profile and builds the client as every command does (flag > env >
// profile; --max-wait, --timeout and --debug apply), then hands plain dependencies to the server.
// A missing key does not stop the server: each tool call answers with an auth error saying how
// to fix it, which an assistant can show, where a server that exits at once shows nothing.
import type { Context } from '../../context.js';
import { CliError, EXIT } from '../../cli-error.js';
import { startMcpServer } from '../../../mcp/server.js';
import { MAX_RATE_WAIT_MS, ToolError } from '../../../mcp/errors.js';
import { resolveMediaDirs } from '../../../mcp/media-paths.js';
import type { McpFlags } from './index.js';
import { visible } from '../../../output/terminal-safe.js';
import { baseUrlProblem } from '../../../config/base-url.js';
import { SCHEMA_DIALECTS } from '../../../mcp/json-schema.js';
import { choice } from '../../flags/choice.js';
import { ledgerFor } from '../../upload-ledger.js';

const SETUP_HINT = 'this is how `socialpub mcp` was set up, not something the arguments can fix: tell the user (`socialpub auth status` shows the profile, its base URL and key)';

export async function runMcp(ctx: Context, opts: McpFlags): Promise<number> {
  const schemaDialect = opts.schemaDialect === undefined ? 'strict' : choice('--schema-dialect', opts.schemaDialect, SCHEMA_DIALECTS, { noun: 'schema dialect', listLabel: 'dialects' });
  const profile = await ctx.profile();
  const mediaDirs = await resolveMediaDirs(opts.mediaDir ?? []);
  // Someone who typed it by hand is told what it waits for, instead of a silent prompt-less screen.
  if ((ctx.io.stdinIsTTY ?? ctx.io.stdin.isTTY) && !ctx.globals.quiet) {
    ctx.io.stderr.write('socialpub mcp: waiting for an MCP client on stdin (an assistant starts this command itself: see `socialpub help mcp`); Ctrl-C stops it\n');
  }
  await startMcpServer({
    async client(signal) {
      // A base URL no request can go to is the user's setup, not the assistant's arguments.
      const problem = baseUrlProblem(profile.baseUrl);
      if (problem) throw new ToolError({ code: 'error', message: `the base URL of profile ${profile.name} cannot be used: ${problem}; nothing was sent`, hints: [SETUP_HINT] });
      try {
        const maxWaitMs = Math.min(ctx.globals.maxWaitMs, MAX_RATE_WAIT_MS);
        return await (signal ? ctx.client({ signal: AbortSignal.any([ctx.signal, signal]), maxWaitMs }) : ctx.client({ maxWaitMs }));
      } catch (err) {
        if (err instanceof CliError && err.code === 'NO_API_KEY') {
          throw new ToolError({ code: 'auth', message: err.message, hints: ['run `socialpub auth login` for this profile, or set SOCIALPUB_API_KEY in the environment the assistant starts `socialpub mcp` with'] });
        }
        // Any other problem with the profile (one that does not exist, say): also the setup.
        if (err instanceof CliError) throw new ToolError({ code: err.exitCode === EXIT.auth ? 'auth' : 'error', message: err.message, hints: [SETUP_HINT, ...err.hints] });
        throw err;
      }
    },
    profileName: profile.name,
    dialect: profile.api,
    secrets: profile.apiKey ? [profile.apiKey] : [],
    now: () => ctx.clock.now(),
    sleep: (ms, signal) => ctx.clock.sleep(ms, signal),
    signal: ctx.signal,
    stdin: ctx.io.stdin,
    stdout: ctx.io.stdout as unknown as NodeJS.WritableStream,
    log: (line) => {
      // Log lines quote the service's messages: their control characters are shown, not obeyed.
      if (!ctx.globals.quiet) ctx.io.stderr.write(`socialpub mcp: ${visible(line)}\n`);
    },
    readOnly: Boolean(opts.readOnly),
    draftsOnly: Boolean(opts.draftsOnly),
    allowDestructive: Boolean(opts.allowDestructive),
    schemaDialect,
    mediaDirs,
    // Only local files are uploaded, and only from --media-dir folders.
    ...(mediaDirs.length ? { ledger: await ledgerFor(ctx) } : {}),
    version: ctx.version,
  });
  // Stopped by a signal rather than by the client closing stdin: say so, as every command does
  // (130 here; a SIGTERM becomes 143 where the signal is known).
  return ctx.signal.aborted ? EXIT.interrupted : EXIT.ok;
}
