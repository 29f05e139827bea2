// Completion scripts generated from a small commander tree that has a program-wide --fields
// (the real program may not have it yet), asked through real bash, and fish/zsh where installed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from '@commander-js/extra-typings';
import { afterAll, describe, expect, it } from 'vitest';
import { completionScript } from '../../src/cli/completion/generate.js';
import { commandTree, timeZones } from '../../src/cli/completion/tree.js';
import { fieldsOf } from '../../src/output/fields-of.js';
import { helpTopicNames } from '../../src/cli/help-topics.js';
import { bashComplete, fishComplete, hasShell, zshComplete } from '../helpers/shell-complete.js';
import { runCli } from '../helpers/run-cli.js';

function smallProgram(): Command {
  const root = new Command('socialpub');
  root.addOption(new Option('-o, --output <format>', 'output format').choices(['table', 'tsv', 'json', 'ndjson']));
  root.option('--fields <list>', 'fields to print, comma-separated (id,status,error.code)');
  root.option('--json', 'same as --output json');
  const posts = root.command('posts').description('posts');
  posts.command('create').option('--title <text>', 'a title');
  posts.command('list').option('--status <s>', 'status');
  const results = root.command('results').description('results');
  results.command('list').option('--tz <zone>', 'zone');
  results.command('stats').option('--tz <zone>', 'zone');
  root.command('auth').command('logout');
  root.command('help').argument('[words...]');
  return root;
}

const dir = mkdtempSync(join(tmpdir(), 'socialpub-completion-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const scriptFor = (shell: 'bash' | 'zsh' | 'fish') => {
  const file = join(dir, `script.${shell}`);
  writeFileSync(file, completionScript(shell, smallProgram()));
  return file;
};

describe('the command tree', () => {
  it('gives --fields the fields of each command, wherever the option is defined', () => {
    const tree = commandTree(smallProgram());
    const fieldsFlag = (path: string) => tree.find((s) => s.path.join(' ') === path)!.flags.find((f) => f.names.includes('--fields'))!.values;
    expect(fieldsFlag('results list')).toEqual({ kind: 'fields', fields: fieldsOf('results list') });
    expect(fieldsFlag('results stats')).toEqual({ kind: 'fields', fields: ['key', 'total', 'succeeded', 'failed', 'failure_rate', 'failure_share'] });
    expect(fieldsFlag('auth logout')).toEqual({ kind: 'fields', fields: [] });
  });
  it('offers the help topics, then the commands, after help', () => {
    const help = commandTree(smallProgram()).find((s) => s.path.join(' ') === 'help')!;
    expect(help.argument).toEqual({ kind: 'words', words: [...helpTopicNames(), 'posts', 'results', 'auth'] });
  });
  it('knows the IANA zones, UTC included', () => {
    expect(timeZones()).toEqual(expect.arrayContaining(['Europe/Paris', 'America/New_York', 'UTC']));
  });
});

describe('bash', () => {
  const script = scriptFor('bash');
  const complete = (line: string, wordbreaks?: string) => bashComplete(script, line, { wordbreaks });

  it('offers the command fields after --fields, and completes after the last comma without repeats', () => {
    expect(complete('socialpub results stats --fields ')).toEqual(['failed', 'failure_rate', 'failure_share', 'key', 'succeeded', 'total']);
    expect(complete('socialpub results list --fields id,error.c')).toEqual(['id,error.code', 'id,error.context']);
    expect(complete('socialpub -o json results stats --fields key,total,')).toEqual(['key,total,failed', 'key,total,failure_rate', 'key,total,failure_share', 'key,total,succeeded']);
    expect(complete('socialpub posts list --fields sch')).toEqual(['scheduledAt']);
    expect(complete('socialpub auth logout --fields ')).toEqual([]);
  });
  it('completes IANA zones after --tz', () => {
    expect(complete('socialpub results list --tz Europe/Pa')).toEqual(['Europe/Paris']);
    expect(complete('socialpub results stats --tz Asia/Tok')).toEqual(['Asia/Tokyo']);
  });
  it('still completes zones and fields when COMP_WORDBREAKS splits at "/" and ","', () => {
    const breaks = `"'><=;|&(:/,`;
    // bash replaces only its own current word ("Pa"), so the reply is that word's completion.
    expect(complete('socialpub results list --tz Europe/Pa', breaks)).toEqual(['Paris']);
    expect(complete('socialpub results list --tz America/Argentina/Sal', breaks)).toEqual(['Salta']);
    expect(complete('socialpub results stats --fields key,to', breaks)).toEqual(['total']);
    expect(complete('socialpub results stats --fields key,', breaks)).toEqual([',failed', ',failure_rate', ',failure_share', ',succeeded', ',total']);
  });
  it('offers subcommands, not flags, until the word starts with "-" (like gh)', () => {
    expect(complete('socialpub posts ')).toEqual(['create', 'list']);
    expect(complete('socialpub ')).toEqual(['auth', 'help', 'posts', 'results']);
    expect(complete('socialpub posts --')).toEqual(['--fields', '--help', '--json', '--output']);
  });
  it('offers the help topics after help', () => {
    expect(complete('socialpub help ')).toEqual(expect.arrayContaining(['environment', 'exit-codes', 'reference', 'posts']));
    expect(complete('socialpub help ex')).toEqual(['exit-codes']);
  });
});

describe.runIf(hasShell('fish'))('fish (installed here)', () => {
  const script = scriptFor('fish');
  const complete = (line: string) => fishComplete(script, line);
  it('offers the command fields after --fields, after the last comma, without repeats', () => {
    expect(complete('socialpub results stats --fields ')).toEqual(['failed', 'failure_rate', 'failure_share', 'key', 'succeeded', 'total']);
    expect(complete('socialpub results stats --fields key,total,f')).toEqual(['key,total,failed', 'key,total,failure_rate', 'key,total,failure_share']);
    expect(complete('socialpub results list --fields error.m')).toEqual(['error.message']);
  });
  it('completes zones, subcommands before flags, and help topics', () => {
    expect(complete('socialpub results list --tz Europe/Pa')).toEqual(['Europe/Paris']);
    expect(complete('socialpub posts ')).toEqual(['create', 'list']);
    expect(complete('socialpub help ex')).toEqual(['exit-codes']);
  });
});

describe.runIf(hasShell('zsh'))('zsh (installed here)', () => {
  const script = scriptFor('zsh');
  it('offers the command fields after --fields, after the last comma, without repeats', () => {
    expect(zshComplete(script, 'socialpub results stats --fields ').matches).toEqual(['failed', 'failure_rate', 'failure_share', 'key', 'succeeded', 'total']);
    const after = zshComplete(script, 'socialpub results stats --fields key,total,');
    expect(after.matches).toEqual(['failed', 'failure_rate', 'failure_share', 'succeeded']);
    expect(zshComplete(script, 'socialpub results list --fields id,error.m').buffer).toBe('socialpub results list --fields id,error.message,');
  });
  it('completes zones part by part, subcommands before flags, and help topics', () => {
    expect(zshComplete(script, 'socialpub results list --tz Europe/Pa').buffer).toBe('socialpub results list --tz Europe/Paris ');
    expect(zshComplete(script, 'socialpub posts ').matches).toEqual(['create', 'list']);
    expect(zshComplete(script, 'socialpub help ex').buffer).toBe('socialpub help exit-codes ');
  });
});

describe('completion without a shell it can tell', () => {
  it.each([[{ SHELL: '/bin/sh' }, '$SHELL is /bin/sh'], [{ SHELL: undefined }, '$SHELL is not set']])('%j: exit 2, and the hint is a command that runs as pasted', async (env, why) => {
    const r = await runCli(['completion'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(why);
    const hint = /hint: (.*)/.exec(r.stderr)![1]!;
    // Not `socialpub completion bash | zsh | fish`, which pipes the bash script into zsh.
    expect(hint).toMatch(/^socialpub completion bash \(or zsh, or fish\)/);
    expect(hint).not.toContain('|');
  });
});
