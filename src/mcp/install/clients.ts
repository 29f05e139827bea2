// Where each assistant keeps its MCP servers, as each documents it, and the entry that starts
// `socialpub mcp` there. The entry carries the command and its flags, and at most the profile's
// name: never a key (the server reads the profile's key itself, from the credential store or
// the 0600 config file).
import { join } from 'node:path';

export const CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'codex', 'vscode'] as const;
export type ClientId = (typeof CLIENTS)[number];
export type Scope = 'project' | 'user';

/** How the servers are written in the file. */
export type FileFormat = { kind: 'json'; key: 'mcpServers' | 'servers'; stdioType: boolean } | { kind: 'toml'; table: 'mcp_servers' };

export interface ClientInfo {
  label: string;
  scopes: readonly Scope[];
  /** The scope used when none is given. */
  defaultScope: Scope;
  format: FileFormat;
}

export const CLIENT_INFO: Record<ClientId, ClientInfo> = {
  // Claude Code: .mcp.json at the project root (shared through version control; each user approves
  // it once), or the user's ~/.claude.json, top-level mcpServers.
  'claude-code': { label: 'Claude Code', scopes: ['project', 'user'], defaultScope: 'project', format: { kind: 'json', key: 'mcpServers', stdioType: false } },
  'claude-desktop': { label: 'Claude Desktop', scopes: ['user'], defaultScope: 'user', format: { kind: 'json', key: 'mcpServers', stdioType: false } },
  cursor: { label: 'Cursor', scopes: ['user', 'project'], defaultScope: 'user', format: { kind: 'json', key: 'mcpServers', stdioType: false } },
  // Codex: [mcp_servers.NAME] in ~/.codex/config.toml, or .codex/config.toml of a trusted project.
  codex: { label: 'Codex', scopes: ['user', 'project'], defaultScope: 'user', format: { kind: 'toml', table: 'mcp_servers' } },
  // VS Code: .vscode/mcp.json of the workspace, or mcp.json of the user profile; "servers", with a type.
  vscode: { label: 'VS Code', scopes: ['project', 'user'], defaultScope: 'project', format: { kind: 'json', key: 'servers', stdioType: true } },
};

export interface Places {
  home: string;
  projectDir: string;
  platform: NodeJS.Platform;
  /** %APPDATA% on Windows. */
  appData?: string;
  /** $XDG_CONFIG_HOME, when set. */
  xdgConfig?: string;
  /** $CODEX_HOME, when set. */
  codexHome?: string;
}

/** The per-user application-data folder the desktop apps use. */
function appDataDir(p: Places): string {
  if (p.platform === 'darwin') return join(p.home, 'Library', 'Application Support');
  if (p.platform === 'win32') return p.appData ?? join(p.home, 'AppData', 'Roaming');
  return p.xdgConfig ?? join(p.home, '.config');
}

/** The configuration file of a client at a scope. */
export function configFile(client: ClientId, scope: Scope, p: Places): string {
  switch (client) {
    case 'claude-code':
      return scope === 'project' ? join(p.projectDir, '.mcp.json') : join(p.home, '.claude.json');
    case 'claude-desktop':
      return join(appDataDir(p), 'Claude', 'claude_desktop_config.json');
    case 'cursor':
      return scope === 'project' ? join(p.projectDir, '.cursor', 'mcp.json') : join(p.home, '.cursor', 'mcp.json');
    case 'codex':
      return scope === 'project' ? join(p.projectDir, '.codex', 'config.toml') : join(p.codexHome ?? join(p.home, '.codex'), 'config.toml');
    case 'vscode':
      return scope === 'project' ? join(p.projectDir, '.vscode', 'mcp.json') : join(appDataDir(p), 'Code', 'User', 'mcp.json');
  }
}

export interface ServerEntry {
  command: string;
  args: string[];
  /** Only SOCIALPUB_PROFILE, when a profile was named: never a key. */
  env?: Record<string, string>;
}

export interface EntryOptions {
  profile?: string;
  readOnly?: boolean;
  draftsOnly?: boolean;
  mediaDirs?: readonly string[];
}

export function serverEntry(options: EntryOptions): ServerEntry {
  const args = ['mcp'];
  if (options.readOnly) args.push('--read-only');
  if (options.draftsOnly) args.push('--drafts-only');
  for (const dir of options.mediaDirs ?? []) args.push('--media-dir', dir);
  return { command: 'socialpub', args, ...(options.profile ? { env: { SOCIALPUB_PROFILE: options.profile } } : {}) };
}
