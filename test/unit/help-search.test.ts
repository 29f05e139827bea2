// `socialpub help WORD` finds commands and topics by what they do, not only by name.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('help by keyword', () => {
  it.each([
    ['ics', ['posts list', 'posts queue']],
    ['reschedule', ['posts schedule']],
    ['move', ['posts schedule']],
  ])('help %s lists the commands that mention it (exit 0)', async (word, expected) => {
    const r = await runCli(['help', word]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`No command or topic is called "${word}"`);
    for (const name of expected) expect(r.stdout).toMatch(new RegExp(`^ {2}socialpub ${name}\\s`, 'm'));
    // The command that does it comes first.
    expect(r.stdout.split('\n')[1]).toMatch(new RegExp(`^ {2}socialpub ${expected[0]}\\s`));
  });

  it('a word nothing mentions is still exit 2 with the nearest name', async () => {
    const r = await runCli(['help', 'pots']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean `socialpub help posts`?');
  });
});
