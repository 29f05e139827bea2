// Prompts sit behind this interface so tests can answer them; the real one wraps
// @inquirer prompts (inquirer-prompts.ts), loaded only when a prompt is actually shown.
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
  const load = () => import('./inquirer-prompts.js');
  return {
    async input(o) {
      return (await load()).input(o, context);
    },
    async password(o) {
      return (await load()).password({ ...o, mask: true }, context);
    },
    async confirm(o) {
      return (await load()).confirm(o, context);
    },
    async checkbox(o) {
      return (await load()).checkbox(o, context);
    },
    async select(o) {
      return (await load()).select(o, context);
    },
  };
}
