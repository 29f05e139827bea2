import { describe, expect, it } from 'vitest';
import { COLOR_PRECEDENCE, colorEnabled } from '../../src/output/colors.js';

const on = (env: Record<string, string>, isTTY: boolean, flag = true) => colorEnabled({ flag, env, isTTY });

describe('colour conventions (CLICOLOR, CLICOLOR_FORCE, TERM=dumb)', () => {
  it.each([
    // [env, isTTY, flag, expected, why]
    [{ CLICOLOR: '0' }, true, true, false, 'CLICOLOR=0 turns colour off on a terminal'],
    [{ TERM: 'dumb' }, true, true, false, 'TERM=dumb turns colour off on a terminal'],
    [{ CLICOLOR: '1' }, true, true, true, 'CLICOLOR=1 leaves the terminal rule'],
    [{ CLICOLOR: '1' }, false, true, false, 'CLICOLOR=1 does not force colour into a pipe'],
    [{ CLICOLOR_FORCE: '1' }, false, true, true, 'CLICOLOR_FORCE=1 forces it like FORCE_COLOR'],
    [{ CLICOLOR_FORCE: '0' }, false, true, false, 'CLICOLOR_FORCE=0 forces nothing'],
    [{ CLICOLOR_FORCE: '1', CLICOLOR: '0' }, true, true, true, 'forcing beats CLICOLOR=0'],
    [{ CLICOLOR_FORCE: '1', TERM: 'dumb' }, false, true, true, 'forcing beats TERM=dumb'],
    [{ FORCE_COLOR: '1', TERM: 'dumb' }, true, true, true, 'FORCE_COLOR beats TERM=dumb'],
    [{ FORCE_COLOR: '0', CLICOLOR_FORCE: '1' }, true, true, false, 'FORCE_COLOR=0 is an explicit no'],
    [{ NO_COLOR: '1', CLICOLOR_FORCE: '1' }, true, true, false, 'NO_COLOR beats forcing'],
    [{ CLICOLOR_FORCE: '1' }, true, false, false, '--no-color beats everything'],
    [{ NO_COLOR: '' }, true, true, true, 'an empty NO_COLOR is not set'],
  ] as [Record<string, string>, boolean, boolean, boolean, string][])('%j tty=%s flag=%s → %s (%s)', (env, isTTY, flag, expected) => {
    expect(on(env, isTTY, flag)).toBe(expected);
  });

  it('documents the precedence in the order the code applies it', () => {
    const order = ['--no-color', 'NO_COLOR', 'FORCE_COLOR', 'CLICOLOR_FORCE', 'TERM=dumb', 'otherwise'].map((w) => COLOR_PRECEDENCE.indexOf(w));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
