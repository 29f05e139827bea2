// The checked-in completion scripts match the command tree, and bash (and fish, where it is
// installed) really offer what they should.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { bashComplete, fishComplete, hasShell, sq, zshComplete } from '../helpers/shell-complete.js';
import { helpTopicNames } from '../../src/cli/help-topics.js';
import { ROOT } from './ensure-built.js';

const FILES = { bash: 'socialpub.bash', zsh: '_socialpub', fish: 'socialpub.fish' } as const;

describe('completion scripts', () => {
  for (const [shell, file] of Object.entries(FILES)) {
    it(`completions/${file} is up to date (run \`npm run completions\` if this fails)`, async () => {
      const r = await runCli(['completion', shell]);
      expect(r.code).toBe(0);
      expect(readFileSync(join(ROOT, 'completions', file), 'utf8')).toBe(r.stdout);
    });
  }

  // zsh and fish parse their scripts where they are installed (not every machine has them;
  // bash, which every machine has, is exercised fully below).
  for (const [shell, file] of [['zsh', FILES.zsh], ['fish', FILES.fish]] as const) {
    it.runIf(hasShell(shell))(`${shell} parses completions/${file}`, () => {
      const r = spawnSync(shell, ['-n', join(ROOT, 'completions', file)], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    });
  }

  describe('bash', () => {
    const tmp = tempConfigDir();
    let script: string;
    beforeAll(async () => {
      // A profile to complete, and a `socialpub` on PATH that reads this temporary config.
      await runCli(['completion', '--list-profiles'], { configDir: tmp.dir });
      writeFileSync(join(tmp.dir, 'config.json'), JSON.stringify({ profiles: { work: {}, personal: {} } }), { mode: 0o600 });
      mkdirSync(join(tmp.dir, 'bin'));
      const shim = join(tmp.dir, 'bin', 'socialpub');
      writeFileSync(shim, `#!/bin/sh\nSOCIALPUB_CONFIG_DIR=${sq(tmp.dir)} exec ${sq(process.execPath)} ${sq(join(ROOT, 'bin', 'socialpub.js'))} "$@"\n`);
      chmodSync(shim, 0o755);
      script = join(ROOT, 'completions', FILES.bash);
    });
    afterAll(() => tmp.cleanup());

    const complete = (line: string, wordbreaks?: string): string[] =>
      bashComplete(script, line, { env: { PATH: `${join(tmp.dir, 'bin')}:${process.env.PATH}`, HOME: tmp.dir }, wordbreaks });

    it('offers the shells after `completion`', () => {
      expect(complete('socialpub completion ')).toEqual(['bash', 'fish', 'zsh']);
    });
    it('completes a partial command name', () => {
      expect(complete('socialpub compl')).toEqual(['completion']);
    });
    it('completes output formats after -o', () => {
      expect(complete('socialpub -o n')).toEqual(['ndjson']);
    });
    it('offers the verbs of a noun, and flag values per command', () => {
      expect(complete('socialpub results ').filter((w) => !w.startsWith('-'))).toEqual(['get', 'list', 'retry', 'stats', 'wait']);
      expect(complete('socialpub posts list --status ')).toEqual(['draft', 'failed', 'published', 'scheduled']);
      expect(complete('socialpub listen --status ')).toEqual(['failed', 'published']);
      expect(complete('socialpub posts create --platform bl')).toEqual(['bluesky']);
      expect(complete('socialpub --json posts sch')).toEqual(['schedule']);
    });
    it('reads profile names at completion time', () => {
      expect(complete('socialpub --profile ')).toEqual(['personal', 'work']);
    });
    it('offers the help topics after `help`', () => {
      expect(complete('socialpub help ')).toEqual(expect.arrayContaining([...helpTopicNames(), 'posts', 'results']));
      expect(complete('socialpub help env')).toEqual(['environment']);
      // `mcp` is a topic and a command: offered once.
      expect(complete('socialpub help m')).toEqual(['mcp']);
    });
    it('offers IANA zones after --tz, on every command that has it', () => {
      for (const path of ['posts schedule', 'results list', 'results stats', 'results retry']) expect(complete(`socialpub ${path} --tz Europe/Pa`)).toEqual(['Europe/Paris']);
      // A COMP_WORDBREAKS that splits at "/" gets back only the part bash calls the word.
      expect(complete('socialpub posts schedule --tz Europe/Pa', `"'><=;|&(:/`)).toEqual(['Paris']);
    });
    it('offers the command fields after the program-wide --fields, after the last comma', () => {
      expect(complete('socialpub results list --fields id,error.c')).toEqual(['id,error.code', 'id,error.context']);
      expect(complete('socialpub --json posts list --fields sched')).toEqual(['scheduledAt']);
      expect(complete('socialpub results stats --fields key,')).toEqual(['key,failed', 'key,failure_rate', 'key,failure_share', 'key,succeeded', 'key,total']);
    });
    it('completes a platform or a status after a comma, without the ones already given', () => {
      expect(complete('socialpub posts create --platform instagram,th')).toEqual(['instagram,threads']);
      expect(complete('socialpub posts edit post_1 --remove-platform bluesky,li')).toEqual(['bluesky,linkedin']);
      expect(complete('socialpub posts list --status draft,')).toEqual(['draft,failed', 'draft,published', 'draft,scheduled']);
    });
    it('the install lines of `completion --help` and the README work in a fresh home folder, and a new shell then completes', async () => {
      const help = await runCli(['completion', '--help']);
      const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
      const lines = [
        ...help.stdout.split('\nExamples:\n')[1]!.split('\n').filter((l) => l.includes('bash')),
        // Each README block that installs the bash script, run as a whole.
        ...[...readme.matchAll(/```sh\n([^`]*?completion bash[^`]*?)```/g)].map((m) => m[1]!),
      ];
      expect(lines.length).toBeGreaterThanOrEqual(2);
      for (const line of lines) {
        const home = join(tmp.dir, `home-${lines.indexOf(line)}`);
        mkdirSync(home);
        const env = { PATH: `${join(tmp.dir, 'bin')}:${process.env.PATH}`, HOME: home };
        const install = spawnSync('bash', ['-c', line.replace(/#[^'\n]*$/gm, '')], { encoding: 'utf8', env });
        expect(install.status, `${line}\n${install.stderr}`).toBe(0);
        // What a new interactive shell (or bash-completion, on first use) then loads.
        const file = join(home, '.local/share/bash-completion/completions/socialpub');
        const load = line.includes('.bashrc') ? 'source ~/.bashrc' : `source ${sq(file)}`;
        const check = spawnSync('bash', ['-c', `${load}; complete -p socialpub`], { encoding: 'utf8', env });
        expect(check.stdout, `${line}\n${check.stderr}`).toContain('-F _socialpub socialpub');
      }
    });

    it('lists the subcommands of posts, and its flags only once the word starts with "-"', () => {
      expect(complete('socialpub posts ')).toEqual(['calendar', 'check', 'create', 'delete', 'edit', 'list', 'preview', 'queue', 'schedule', 'unschedule', 'view']);
      expect(complete('socialpub posts -')).toEqual(expect.arrayContaining(['--json', '--output', '--profile', '--help']));
      expect(complete('socialpub posts -').every((w) => w.startsWith('-'))).toBe(true);
    });
  });

  describe.runIf(hasShell('fish'))('fish (installed here)', () => {
    const complete = (line: string) => fishComplete(join(ROOT, 'completions', FILES.fish), line);
    it('offers help topics, zones, and the subcommands of posts', () => {
      expect(complete('socialpub help ex')).toEqual(['exit-codes']);
      expect(complete('socialpub posts schedule --tz Europe/Pa')).toEqual(['Europe/Paris']);
      expect(complete('socialpub posts ')).toEqual(['calendar', 'check', 'create', 'delete', 'edit', 'list', 'preview', 'queue', 'schedule', 'unschedule', 'view']);
      expect(complete('socialpub results list --fields error.m')).toEqual(['error.message']);
      expect(complete('socialpub posts create --platform instagram,th')).toEqual(['instagram,threads']);
    });
  });

  describe.runIf(hasShell('zsh'))('zsh (installed here)', () => {
    const script = join(ROOT, 'completions', FILES.zsh);
    it('offers help topics, zones, and the subcommands of posts without the flags', () => {
      expect(zshComplete(script, 'socialpub help ex').buffer).toBe('socialpub help exit-codes ');
      expect(zshComplete(script, 'socialpub posts schedule --tz Europe/Pa').buffer).toBe('socialpub posts schedule --tz Europe/Paris ');
      expect(zshComplete(script, 'socialpub posts ').matches).toEqual(['calendar', 'check', 'create', 'delete', 'edit', 'list', 'preview', 'queue', 'schedule', 'unschedule', 'view']);
      expect(zshComplete(script, 'socialpub results list --fields id,error.m').buffer).toBe('socialpub results list --fields id,error.message,');
      expect(zshComplete(script, 'socialpub posts create --platform instagram,th').buffer).toBe('socialpub posts create --platform instagram,threads,');
    });
  });
});
