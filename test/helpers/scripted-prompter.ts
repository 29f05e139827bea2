// Answers prompts from a script and records what was asked. By default an answer the prompt's
// validate refuses fails the test run; with `reask` it is recorded in `refused` and the next
// answer is taken, as a terminal prompt asks again.
import type { Choice, Prompter } from '../../src/cli/prompter.js';

export class ScriptedPrompter implements Prompter {
  asked: string[] = [];
  /** Answers refused by a prompt's validate, with the reason shown (only with `reask`). */
  refused: Array<{ answer: string; reason: string }> = [];
  constructor(
    private answers: unknown[],
    private options: { reask?: boolean } = {},
  ) {}
  private next<T>(message: string): T {
    this.asked.push(message);
    if (this.answers.length === 0) throw new Error(`unexpected prompt: ${message}`);
    return this.answers.shift() as T;
  }
  async input(o: { message: string; validate?: (v: string) => true | string | Promise<true | string> }): Promise<string> {
    for (;;) {
      const v = this.next<string>(o.message);
      const ok = (await o.validate?.(v)) ?? true;
      if (ok === true) return v;
      if (!this.options.reask) throw new Error(`prompt refused "${v}": ${ok}`);
      this.refused.push({ answer: v, reason: ok });
    }
  }
  async password(o: { message: string }) {
    return this.next<string>(o.message);
  }
  async confirm(o: { message: string }) {
    return this.next<boolean>(o.message);
  }
  /** The choices each checkbox or select offered, by its message (the last time it asked), as shown (with what was ticked). */
  offered = new Map<string, Choice<unknown>[]>();
  async checkbox<T>(o: { message: string; choices: Choice<T>[] }) {
    this.offered.set(o.message, o.choices);
    return this.next<T[]>(o.message);
  }
  async select<T>(o: { message: string; choices?: Choice<T>[] }) {
    if (o.choices) this.offered.set(o.message, o.choices);
    return this.next<T>(o.message);
  }
}
