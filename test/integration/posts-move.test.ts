// Moving a scheduled post (issue: `--at +2h` counted from now moved a post three days earlier,
// silently): every move says from when to when and which way, a move earlier is confirmed on a
// terminal, and --shift moves a post from its own time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../src/wire/schemas.js';
import { runCli } from '../helpers/run-cli.js';
import { ScriptedPrompter } from '../helpers/scripted-prompter.js';
import { cliEnv, manualSandbox, oracleGet, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
beforeAll(async () => {
  sb = await manualSandbox();
});
afterAll(async () => {
  await sb.close();
});

const cli = (argv: string[], options: Parameters<typeof runCli>[1] = {}) =>
  runCli(argv, { clock: sandboxClock(sb.clock), ...options, env: { ...cliEnv(sb), TZ: 'UTC', ...options.env } });
const getPost = (id: string) => oracleGet<Post>(sb, `/v1/posts/${id}`);
const inHours = (h: number) => new Date(sb.clock.now() + h * 3_600_000).toISOString();
const HOUR = 3_600_000;

async function scheduled(hours: number): Promise<Post> {
  const r = await cli(['posts', 'schedule', '--platform', 'bluesky', '--text', `due in ${hours}h`, '--at', inHours(hours), '--json']);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Post;
}

describe('moving a scheduled post', () => {
  it('--at +2h on a post due in 3 days says it moves earlier, and by how much, on stderr', async () => {
    const p = await scheduled(72);
    const r = await cli(['posts', 'schedule', p.id, '--at', '+2h', '--json', '--tz', 'UTC']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`${p.id} moves from \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC to \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: 2 days 22 hours earlier`));
    expect(JSON.parse(r.stdout)).toMatchObject({ id: p.id });
  });

  it('a move later says later', async () => {
    const p = await scheduled(3);
    const r = await cli(['posts', 'schedule', p.id, '--at', inHours(5), '--tz', 'UTC']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(': 2 hours later');
  });

  it('on a terminal a move earlier is asked; "no" leaves the post as it was; --yes does not ask', async () => {
    const p = await scheduled(48);
    const prompter = new ScriptedPrompter([false]);
    const r = await cli(['posts', 'schedule', p.id, '--at', '+1h'], { tty: true, prompter, env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(prompter.asked).toEqual([`Move ${p.id} earlier than planned?`]);
    expect(r.stderr).toContain('cancelled');
    expect((await getPost(p.id)).scheduledAt).toBe(p.scheduledAt);

    const yes = await cli(['posts', 'schedule', p.id, '--at', '+1h', '--yes'], { tty: true, prompter: new ScriptedPrompter([]), env: { NO_COLOR: '1' } });
    expect(yes.code).toBe(0);
    expect(Date.parse((await getPost(p.id)).scheduledAt!)).toBeLessThan(Date.parse(p.scheduledAt!));
  });

  it('a move later is not asked on a terminal', async () => {
    const p = await scheduled(2);
    const r = await cli(['posts', 'schedule', p.id, '--at', inHours(4)], { tty: true, prompter: new ScriptedPrompter([]), env: { NO_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(Date.parse((await getPost(p.id)).scheduledAt!)).toBe(Date.parse(p.scheduledAt!) + 2 * HOUR);
  });
});

describe('posts schedule --shift', () => {
  it('+2h and -1d move from the post\'s own time (also written --shift=-1d)', async () => {
    const p = await scheduled(72);
    const r = await cli(['posts', 'schedule', p.id, '--shift', '+2h', '--json']);
    expect(r.code).toBe(0);
    expect((await getPost(p.id)).scheduledAt).toBe(new Date(Date.parse(p.scheduledAt!) + 2 * HOUR).toISOString());
    expect(r.stderr).toContain(': 2 hours later');
    const back = await cli(['posts', 'schedule', p.id, '--shift', '-1d', '--yes']);
    expect(back.code).toBe(0);
    expect((await getPost(p.id)).scheduledAt).toBe(new Date(Date.parse(p.scheduledAt!) - 22 * HOUR).toISOString());
    const eq = await cli(['posts', 'schedule', p.id, '--shift=-30m']);
    expect(eq.code).toBe(0);
    expect(eq.stderr).toContain(': 30 min earlier');
  });

  it('a draft has no time to shift: exit 2 naming --at', async () => {
    const d = await cli(['posts', 'create', '--platform', 'bluesky', '--text', 'draft', '--json']);
    const id = (JSON.parse(d.stdout) as Post).id;
    const r = await cli(['posts', 'schedule', id, '--shift', '+2h']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is a draft and has no time to shift from');
    expect(r.stderr).toContain(`socialpub posts schedule ${id} --at`);
    expect((await getPost(id)).status).toBe('draft');
  });

  it('refuses --shift with --at, without an id, unsigned, or into the past (exit 2, nothing moved)', async () => {
    const p = await scheduled(1);
    const both = await cli(['posts', 'schedule', p.id, '--shift', '+2h', '--at', '+3h']);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('--shift cannot be combined with --at')]);
    const noId = await cli(['posts', 'schedule', '--shift', '+2h', '--platform', 'bluesky', '--text', 'x']);
    expect([noId.code, noId.stderr]).toEqual([2, expect.stringContaining('--shift needs the id of a scheduled post')]);
    const unsigned = await cli(['posts', 'schedule', p.id, '--shift', '2h']);
    expect([unsigned.code, unsigned.stderr]).toEqual([2, expect.stringContaining('+2h for later, -2h for earlier')]);
    const past = await cli(['posts', 'schedule', p.id, '--shift', '-2h']);
    expect([past.code, past.stderr]).toEqual([2, expect.stringContaining('is in the past')]);
    expect((await getPost(p.id)).scheduledAt).toBe(p.scheduledAt);
  });
});

describe('posts unschedule', () => {
  it('says what time the post had, and the command that puts it back', async () => {
    const p = await scheduled(30);
    const r = await cli(['posts', 'unschedule', p.id, '--json'], { env: { TZ: 'Europe/Paris' } });
    expect(r.code).toBe(0);
    const local = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(Date.parse(p.scheduledAt!)).replace(',', '');
    expect(r.stderr).toContain(`${p.id} was scheduled for ${local}`);
    const at = p.scheduledAt!.replace(/:00\.000Z$/, 'Z');
    expect(r.stderr).toContain(`(${p.scheduledAt})\nto put it back: socialpub posts schedule ${p.id} --at ${at}`);
    const back = await cli(['posts', 'schedule', p.id, '--at', at]);
    expect(back.code).toBe(0);
    expect((await getPost(p.id)).scheduledAt).toBe(p.scheduledAt);
  });
});
