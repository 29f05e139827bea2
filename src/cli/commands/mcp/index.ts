// `socialpub mcp`: a Model Context Protocol server on stdio, for AI assistants.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { collect } from '../../flags/text.js';
import { defineMcpInstall } from './install.js';

export type McpFlags = FlagsOf<typeof mcpCommand>;

function mcpCommand(program: CommandUnknownOpts) {
  return program
    .command('mcp')
    .summary('serve the API to an AI assistant (Model Context Protocol, stdio)')
    .description(
      'Run a Model Context Protocol server on stdin/stdout, so an AI assistant can draft, schedule and look into posts and results through this profile, with the same validation, idempotency and redaction as the commands. The assistant starts it itself: add it to its MCP configuration (see `socialpub help mcp`). Logs go to stderr; closing stdin or Ctrl-C ends it.',
    )
    .option('--read-only', 'leave the write tools out (create_draft, schedule_post, update_post, unschedule_post, delete_post, retry_failed)')
    .option('--drafts-only', 'drafts only: create, check and edit drafts; nothing is scheduled, moved or deleted (schedule_post, unschedule_post, delete_post left out; scheduled posts not edited)')
    .option('--allow-destructive', 'make destructive changes (delete, unschedule, move, remove a platform) without asking the user first: only for a host that confirms every tool call itself')
    .option('--schema-dialect <dialect>', "strict (default: OpenAI strict, Anthropic strict, Gemini's JSON Schema declarations) or openapi (Gemini's older OpenAPI parameters: nullable, no additionalProperties)")
    .option('--media-dir <dir>', 'a folder the assistant may upload local media from (repeatable; none by default: media only from URLs)', collect)
    .addHelpText(
      'after',
      `
Examples:
  # what an assistant runs (profile: SOCIALPUB_PROFILE or the current one):
  socialpub mcp
  socialpub mcp --read-only --profile support      # results and posts only
  socialpub mcp --drafts-only --media-dir ~/posts  # drafts, media from there
  socialpub mcp install --client claude-code       # add it to an assistant

The tools and the setup: socialpub help mcp`,
    );
}

export function defineMcp(program: CommandUnknownOpts, ctx: Context): void {
  const mcp = mcpCommand(program);
  mcp.action(action(ctx, async (opts) => (await import('./run.js')).runMcp(ctx, opts)));
  defineMcpInstall(mcp, ctx);
}
