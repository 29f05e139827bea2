// Prompts sit behind this interface so tests can answer them; the real one wraps the @inquirer
// prompts, each loaded from its own package only when that prompt is actually shown (through
// @inquirer/prompts' index the bundle also took its editor prompt and iconv-lite, about 600 kB).
import type { Io } from './context.js';

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

export function inquirerPrompter(io: Io): Prompter {
  const context = { input: io.stdin, output: io.stderr } as never;
  return {
    async input(o) {
      return (await import('@inquirer/input')).default(o, context);
    },
    async password(o) {
      return (await import('@inquirer/password')).default({ ...o, mask: true }, context);
    },
    async confirm(o) {
      return (await import('@inquirer/confirm')).default(o, context);
    },
    async checkbox(o) {
      // Every choice in view (inquirer shows 7 by default, which hid two of the nine platforms).
      return (await import('@inquirer/checkbox')).default({ pageSize: o.choices.length, ...o }, context);
    },
    async select(o) {
      return (await import('@inquirer/select')).default(o, context);
    },
  };
}
