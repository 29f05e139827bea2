// Prompts sit behind this interface so tests can answer them; the real one wraps the @inquirer
// prompts, each loaded from its own package only when that prompt is actually shown (through
// @inquirer/prompts' index the bundle also took its editor prompt and iconv-lite, about 600 kB).
import type { Io } from './context.js';
import { visibleLine } from '../output/terminal-safe.js';
import { displayWidth } from '../output/width.js';

export interface Choice<T> {
  name: string;
  value: T;
  checked?: boolean;
  /** What is echoed once chosen (default: name). */
  short?: string;
}

export interface Prompter {
  /** validate may be async (a file to look at); the prompt waits for it and asks again on a string. */
  input(options: { message: string; default?: string; validate?: (value: string) => true | string | Promise<true | string> }): Promise<string>;
  password(options: { message: string }): Promise<string>;
  confirm(options: { message: string; default?: boolean }): Promise<boolean>;
  checkbox<T>(options: { message: string; choices: Choice<T>[]; required?: boolean }): Promise<T[]>;
  select<T>(options: { message: string; choices: Choice<T>[] }): Promise<T>;
}

/**
 * Inquirer's look without colour, through its documented `theme` option: inquirer decides colour
 * from the process's environment alone, so --no-color, CLICOLOR=0 and TERM=dumb never reached it.
 * The same marks and words, unstyled.
 */
const same = (text: string) => text;
export const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  // Shown while an answer is checked (a media path looked at).
  spinner: { interval: 80, frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] },
  style: {
    answer: same,
    message: same,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: same,
    highlight: same,
    key: (text: string) => `<${text}>`,
    description: same,
    disabled: (text: string) => `- ${text}`,
    disabledChoice: (text: string) => `- ${text}`,
    keysHelpTip: (keys: [string, string][]) => keys.map(([key, action]) => `${key} ${action}`).join(' • '),
  },
  icon: { checked: '◉' },
};

/** An answer to a yes/no question: y, yes, n, no in any case, or nothing for the default; else undefined. */
export function yesOrNo(answer: string, byDefault: boolean | undefined): boolean | undefined {
  const a = answer.trim().toLowerCase();
  if (a === '') return byDefault !== false;
  if (a === 'y' || a === 'yes') return true;
  if (a === 'n' || a === 'no') return false;
  return undefined;
}

/**
 * Choices may name what the service sent (an account's handle and display name): inquirer writes
 * them to the terminal as they are, so their control characters are shown, not obeyed, and a line
 * break in one cannot push the rest of the list off its rows.
 */
const shownChoices = <T>(choices: Choice<T>[]): Choice<T>[] => choices.map((c) => ({ ...c, name: visibleLine(c.name), ...(c.short !== undefined ? { short: visibleLine(c.short) } : {}) }));

export function inquirerPrompter(io: Io, options: { color: boolean } = { color: true }): Prompter {
  const context = { input: io.stdin, output: io.stderr } as never;
  // Inquirer's page is counted in lines, and a choice wider than the terminal wraps onto two or
  // more: a page of one line per choice hid the second account of "publish to which?" at 60
  // columns. Counted generously (word wrapping can take a line more); a page taller than the
  // list shows each choice once.
  const pageSize = (choices: readonly Choice<unknown>[]) => {
    const columns = Math.max(20, io.stderr.columns || 80);
    return choices.reduce((lines, c) => lines + Math.ceil((displayWidth(c.name) + 4) / columns) + 1, 0);
  };
  // Each prompt reads the parts of the theme it knows and ignores the rest.
  const themed = <O extends object>(o: O): O => (options.color ? o : { ...o, theme: PLAIN_THEME });
  return {
    async input(o) {
      return (await import('@inquirer/input')).default(themed(o), context);
    },
    async password(o) {
      return (await import('@inquirer/password')).default(themed({ ...o, mask: true }), context);
    },
    async confirm(o) {
      // Asked as an input that takes only yes or no: inquirer's confirm read any other answer
      // ("cancel", "stop") as the default, which is Yes for "Send these changes?".
      const hint = `(${o.default === false ? 'y/N' : 'Y/n'})`;
      // Bold message and dim hint as inquirer's confirm shows them; the hint goes once answered.
      const message = (text: string, status: string) => {
        const shown = options.color ? `\u001b[1m${text}\u001b[22m` : text;
        return status === 'done' ? shown : `${shown} ${options.color ? `\u001b[2m${hint}\u001b[22m` : hint}`;
      };
      const base = options.color ? { style: {} } : PLAIN_THEME;
      const answer = await (await import('@inquirer/input')).default(
        {
          message: o.message,
          theme: { ...base, style: { ...base.style, message }, validationFailureMode: 'clear' as const },
          validate: (value) => (yesOrNo(value, o.default) === undefined ? `Answer y (yes) or n (no), or Enter for ${o.default === false ? 'no' : 'yes'}` : true),
          transformer: (value, { isFinal }) => (isFinal ? (yesOrNo(value, o.default) ? 'Yes' : 'No') : value),
        },
        context,
      );
      return yesOrNo(answer, o.default) ?? false;
    },
    async checkbox(o) {
      // Every choice in view (inquirer shows 7 by default, which hid two of the nine platforms).
      return (await import('@inquirer/checkbox')).default(themed({ pageSize: pageSize(o.choices), ...o, choices: shownChoices(o.choices) }), context);
    },
    async select(o) {
      // Every choice in view too: a menu of eight hid its last entry below the fold.
      return (await import('@inquirer/select')).default(themed({ pageSize: pageSize(o.choices), ...o, choices: shownChoices(o.choices) }), context);
    },
  };
}
