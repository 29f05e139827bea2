// How the demo runs a command: in-process (same code as the binary), with a throwaway config
// folder and the demo's clock, printing the command line first so the user can repeat it.
import { Readable } from 'node:stream';
import { wrapProse } from '../../../output/wrap.js';
import type { Colors } from '../../../output/colors.js';
import type { Clock, Context } from '../../context.js';
import { runProgram } from '../../run.js';
import { tee } from '../../../demo/tee.js';
import { makeOwnedTempDir, removeStaleTempDirs } from '../../../files/owned-temp-dir.js';

const PREFIX = 'socialpub-demo-';

export interface StepResult {
  code: number;
  stdout: string;
}

export interface RunOptions {
  /** The command line as printed, when it differs from argv. */
  shown?: string;
  stdin?: string;
  /** The command line offered to repeat at the end, when it differs from the one shown. */
  repeatAs?: string;
}

export interface DemoSession {
  /** A step's heading. */
  say(text: string): void;
  /** Prints text as is. */
  write(text: string): void;
  /** Prints text wrapped between words on a terminal (commands to copy stay whole). */
  prose(text: string): void;
  run(argv: string[], options?: RunOptions): Promise<StepResult>;
  /** Every command run so far, as a user would type it. */
  readonly commands: readonly string[];
  readonly configDir: string;
  readonly colors: Colors;
  /** Removes the throwaway config folder. */
  close(): void;
}

export function demoSession(ctx: Context, clock: Clock): DemoSession {
  const c = ctx.output().colors;
  const commands: string[] = [];
  // A demo killed outright (kill -9) leaves its folder, with a profile of a sandbox gone with it.
  for (const stale of removeStaleTempDirs(PREFIX)) ctx.output().info(`removed ${stale.path}: the throwaway config of a demo that is no longer running (pid ${stale.pid})`);
  const folder = makeOwnedTempDir(PREFIX);
  const configDir = folder.path;
  const env = {
    ...ctx.env,
    SOCIALPUB_CONFIG_DIR: configDir,
    SOCIALPUB_PROFILE: undefined,
    SOCIALPUB_API_KEY: undefined,
    SOCIALPUB_BASE_URL: undefined,
    // The demo walks through socialpub's own API, whatever this shell's SOCIALPUB_API says.
    SOCIALPUB_API: undefined,
    CI: '1',
  };
  // Tables even when piped (a demo is read by a person), unless the user chose a format.
  const format = ctx.globals.formatExplicit ? ['--output', ctx.globals.format] : ['--output', 'table'];
  const write = (text: string) => void ctx.io.stdout.write(text);
  const width = ctx.io.stdout.isTTY ? ctx.io.stdout.columns : undefined;

  return {
    say: (text) => write(`\n${wrapProse(`${c.bold(c.cyan('▸'))} ${text}`, width)}\n`),
    write,
    prose: (text) => write(wrapProse(text, width)),
    commands,
    configDir,
    colors: c,
    async run(argv, options = {}) {
      const shown = options.shown ?? argv.join(' ');
      commands.push(`socialpub ${options.repeatAs ?? shown}`);
      write(`${c.dim('$')} ${c.bold(`socialpub ${shown}`)}\n`);
      const stdout = tee(ctx.io.stdout);
      const input = Readable.from(options.stdin === undefined ? [] : [options.stdin]) as Readable & { isTTY?: boolean };
      const code = await runProgram([...(ctx.globals.color ? [] : ['--no-color']), ...format, ...argv], {
        io: { stdout, stderr: ctx.io.stderr, stdin: input },
        env,
        clock,
        signal: ctx.signal,
        version: ctx.version,
      });
      if (code !== 0) write(c.dim(`(exit ${code})\n`));
      return { code, stdout: stdout.text() };
    },
    close: folder.remove,
  };
}
