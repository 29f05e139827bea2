// `socialpub mcp install`: add the MCP server to an assistant's configuration file.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { action, type FlagsOf } from '../../action.js';
import { collect } from '../../flags/text.js';

export type McpInstallFlags = FlagsOf<typeof installCommand>;

function installCommand(mcp: CommandUnknownOpts) {
  return mcp
    .command('install')
    .summary("add the MCP server to an assistant's configuration")
    .description(
      "Add `socialpub mcp` to the MCP configuration file of an assistant (Claude Code, Claude Desktop, Cursor, Codex, VS Code), merged with the servers already there, after copying the old file aside. No key is written: the server reads the profile's key itself (name one with --profile). --dry-run prints the change and writes nothing.",
    )
    .requiredOption('--client <client>', 'claude-code, claude-desktop, cursor, codex or vscode')
    .option('--scope <scope>', 'project (a file in the project, shared) or user (yours, every project); the default depends on the client')
    .option('--project-dir <dir>', 'the project whose file a project scope writes (default: the current folder)')
    .option('--name <name>', 'the name of the server in the file (default socialpub)')
    .option('--read-only', 'install it as `socialpub mcp --read-only`')
    .option('--drafts-only', 'install it as `socialpub mcp --drafts-only`')
    .option('--media-dir <dir>', 'a folder it may upload local media from (repeatable)', collect)
    .option('--dry-run', 'print the file it would write and change nothing')
    .addHelpText(
      'after',
      `
Files (as each client documents them; * the default scope):
  claude-code     project*: .mcp.json     user: ~/.claude.json
  claude-desktop  user*: claude_desktop_config.json in the app's folder
  cursor          user*: ~/.cursor/mcp.json     project: .cursor/mcp.json
  codex           user*: ~/.codex/config.toml   project: .codex/config.toml
  vscode          project*: .vscode/mcp.json    user: the profile's mcp.json

Examples:
  socialpub mcp install --client claude-code --dry-run
  socialpub mcp install --client cursor --profile work --drafts-only
  socialpub mcp install --client codex --read-only --json`,
    );
}

export function defineMcpInstall(mcp: CommandUnknownOpts, ctx: Context): void {
  installCommand(mcp).action(
    action(ctx, async (opts, cmd) => {
      // `mcp` itself takes --read-only, --drafts-only and --media-dir, and commander gives a flag
      // both commands define to the parent: read them from there too.
      const parent = (cmd.parent?.opts() ?? {}) as Pick<McpInstallFlags, 'readOnly' | 'draftsOnly' | 'mediaDir'>;
      const flags: McpInstallFlags = { ...opts, readOnly: opts.readOnly ?? parent.readOnly, draftsOnly: opts.draftsOnly ?? parent.draftsOnly, mediaDir: opts.mediaDir ?? parent.mediaDir };
      return (await import('./install.run.js')).runMcpInstall(ctx, flags);
    }),
  );
}
