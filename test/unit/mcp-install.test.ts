// `socialpub mcp install` with a temporary HOME and project folder: each client's documented file,
// merged with what is there, the old file kept aside, no key ever written, --dry-run writing
// nothing, and a malformed file refused by name.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { mergeEntry } from '../../src/mcp/install/merge.js';
import { EXIT_CODE_HELP } from '../../src/cli/cli-error.js';

const KEY = 'sk_live_0123456789abcdefghijKLMN';
let home: string;
let project: string;

beforeEach(() => {
  const root = mkdtempSync(join(tmpdir(), 'socialpub-install-'));
  home = join(root, 'home');
  project = join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
});
afterEach(() => rmSync(join(home, '..'), { recursive: true, force: true }));

const install = (args: string[], extra: Record<string, string> = {}) =>
  runCli(['mcp', 'install', '--project-dir', project, ...args], { env: { HOME: home, SOCIALPUB_API_KEY: KEY, XDG_CONFIG_HOME: join(home, '.config'), ...extra } });
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
const backups = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.bak'));

describe('socialpub mcp install', () => {
  it('claude-code: writes the project .mcp.json, with no key in it', async () => {
    const r = await install(['--client', 'claude-code']);
    expect(r.code, r.stderr).toBe(0);
    const file = join(project, '.mcp.json');
    expect(json(file)).toEqual({ mcpServers: { socialpub: { command: 'socialpub', args: ['mcp'] } } });
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    expect(r.stdout).toContain(`Added socialpub in Claude Code's ${file}`);
  });

  it('cursor: merges into ~/.cursor/mcp.json, keeping the other servers and a backup of the old file', async () => {
    const dir = join(home, '.cursor');
    mkdirSync(dir);
    const before = { mcpServers: { other: { command: 'other-server', args: ['--x'] } }, extra: true };
    writeFileSync(join(dir, 'mcp.json'), JSON.stringify(before, null, 4));
    const r = await install(['--client', 'cursor', '--drafts-only', '--profile', 'work']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(join(dir, 'mcp.json'))).toEqual({
      mcpServers: { other: before.mcpServers.other, socialpub: { command: 'socialpub', args: ['mcp', '--drafts-only'], env: { SOCIALPUB_PROFILE: 'work' } } },
      extra: true,
    });
    // Its indentation kept; the old file beside it, byte for byte.
    expect(readFileSync(join(dir, 'mcp.json'), 'utf8')).toMatch(/^\{\n {4}"mcpServers"/);
    expect(backups(dir)).toHaveLength(1);
    expect(readFileSync(join(dir, backups(dir)[0]!), 'utf8')).toBe(JSON.stringify(before, null, 4));
    // Again: already there, nothing written, no second backup.
    const again = await install(['--client', 'cursor', '--drafts-only', '--profile', 'work', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'unchanged', backup: null });
    expect(backups(dir)).toHaveLength(1);
  });

  it('vscode: .vscode/mcp.json with "servers" and type stdio', async () => {
    const r = await install(['--client', 'vscode', '--read-only', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(join(project, '.vscode', 'mcp.json'))).toEqual({ servers: { socialpub: { type: 'stdio', command: 'socialpub', args: ['mcp', '--read-only'] } } });
    expect(JSON.parse(r.stdout)).toMatchObject({ client: 'vscode', scope: 'project', action: 'added', dryRun: false });
  });

  it('claude-desktop: the app folder\'s claude_desktop_config.json, 0600 when new', async () => {
    const r = await install(['--client', 'claude-desktop', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const file = JSON.parse(r.stdout).file as string;
    expect(file.endsWith(join('Claude', 'claude_desktop_config.json'))).toBe(true);
    expect(file.startsWith(home)).toBe(true);
    expect(json(file).mcpServers.socialpub).toEqual({ command: 'socialpub', args: ['mcp'] });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('codex: a [mcp_servers.socialpub] table in ~/.codex/config.toml, the rest of the file byte for byte', async () => {
    const dir = join(home, '.codex');
    mkdirSync(dir);
    const before = 'model = "o4"\n\n[mcp_servers.other]\ncommand = "other"\nargs = [\n  "a",\n  "b",\n]\n\n[profiles.x]\nmodel = "y"\n';
    writeFileSync(join(dir, 'config.toml'), before);
    expect((await install(['--client', 'codex'])).code).toBe(0);
    const after = readFileSync(join(dir, 'config.toml'), 'utf8');
    expect(after).toBe(`${before}\n[mcp_servers.socialpub]\ncommand = "socialpub"\nargs = ["mcp"]\n`);
    // Installed again with other flags: its own table replaced, in place.
    expect((await install(['--client', 'codex', '--read-only'])).code).toBe(0);
    expect(readFileSync(join(dir, 'config.toml'), 'utf8')).toBe(`${before}\n[mcp_servers.socialpub]\ncommand = "socialpub"\nargs = ["mcp", "--read-only"]\n`);
    expect(backups(dir)).toHaveLength(2);
  });

  it('--dry-run prints the new file and writes nothing', async () => {
    const r = await install(['--client', 'claude-code', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(project, '.mcp.json'))).toBe(false);
    expect(r.stdout).toContain(`${join(project, '.mcp.json')} would become (adding socialpub):`);
    expect(r.stdout).toContain('"command": "socialpub"');
  });

  it('refuses a malformed file, naming it, and leaves it as it was', async () => {
    const file = join(project, '.mcp.json');
    writeFileSync(file, '{ "mcpServers": { broken ');
    const r = await install(['--client', 'claude-code']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file} is not valid JSON`);
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": { broken ');
    expect(backups(project)).toEqual([]);
    writeFileSync(file, '{ "mcpServers": [] }');
    expect((await install(['--client', 'claude-code'])).stderr).toContain('"mcpServers" is not an object');
  });

  it('refuses a bad client or scope as usage (exit 2), with the nearest', async () => {
    const r = await install(['--client', 'cursr']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean "cursor"?');
    expect((await install(['--client', 'claude-desktop', '--scope', 'project'])).code).toBe(2);
  });
});

describe('TOML merging', () => {
  const entry = { command: 'socialpub', args: ['mcp'] };
  it('refuses what it cannot edit line by line, and a server set as a dotted key', () => {
    expect(() => mergeEntry('not toml at all\n', { kind: 'toml', table: 'mcp_servers' }, 'socialpub', entry)).toThrow(/line 1 is not TOML/);
    expect(() => mergeEntry('mcp_servers.socialpub.command = "x"\n', { kind: 'toml', table: 'mcp_servers' }, 'socialpub', entry)).toThrow(/dotted key or an inline table/);
    expect(() => mergeEntry('[mcp_servers]\nsocialpub = { command = "x" }\n', { kind: 'toml', table: 'mcp_servers' }, 'socialpub', entry)).toThrow(/dotted key or an inline table/);
    expect(mergeEntry('[mcp_servers.socialpub]\ncommand = "socialpub"\nargs = ["mcp"]\n', { kind: 'toml', table: 'mcp_servers' }, 'socialpub', entry).action).toBe('unchanged');
  });
});

describe('the agent skill shipped with the package', () => {
  const ROOT = join(import.meta.dirname, '..', '..');
  const skill = readFileSync(join(ROOT, 'skills', 'socialpub', 'SKILL.md'), 'utf8');

  it('is in the package, with the name and description an assistant loads it by', () => {
    expect((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files).toContain('skills');
    const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(skill);
    expect(front?.[1]).toBe('socialpub');
    expect(front?.[2]!.length).toBeGreaterThan(60);
  });

  it('lists exactly the exit codes the command line has', () => {
    const listed = [...skill.matchAll(/^\| ([\d, ]+) \|/gm)].flatMap((m) => m[1]!.split(',').map((n) => Number(n.trim())));
    expect(listed.sort((a, b) => a - b)).toEqual(EXIT_CODE_HELP.map(([code]) => code).sort((a, b) => a - b));
  });

  it('names only commands and flags that exist', async () => {
    for (const line of skill.split('\n').filter((l) => l.startsWith('socialpub '))) {
      const words = line.replace(/#.*$/, '').trim().split(/\s+/).slice(1, 3).filter((w) => !w.startsWith('-') && /^[a-z]+$/.test(w));
      const help = await runCli([...words, '--help']);
      expect(help.code, line).toBe(0);
      for (const flag of line.replace(/#.*$/, '').match(/--[a-z-]+/g) ?? []) if (!['--json', '--fields'].includes(flag)) expect(help.stdout, `${line}: ${flag}`).toContain(flag);
    }
  });
});
