// Problems with how `socialpub mcp` was set up (a base URL no request can go to, a profile that
// does not exist) come back as what they are, with "tell the user": never as invalid_input,
// which sends an assistant off changing arguments that were fine.
import { describe, expect, it } from 'vitest';
import { startMcpPipe } from '../helpers/mcp-stdio.js';

type Reply = { result: { isError?: boolean; structuredContent: { code: string; message: string; hints?: string[] } } };

async function listPostsWith(env: Record<string, string>) {
  const mcp = startMcpPipe([], { TZ: 'UTC', ...env });
  await mcp.initialize();
  const reply = (await mcp.call(1, 'list_posts', {})) as Reply;
  expect(await mcp.close()).toBe(0);
  return reply.result;
}

describe('a setup problem is not the arguments', () => {
  it('a base URL that is not one: error, naming it, with what to tell the user', async () => {
    for (const url of ['not a url', 'ftp://files.example']) {
      const r = await listPostsWith({ SOCIALPUB_BASE_URL: url, SOCIALPUB_API_KEY: 'sk_test_setup_errors_01' });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ code: 'error', message: expect.stringContaining('the base URL of profile default cannot be used') });
      expect(r.structuredContent.hints![0]).toMatch(/not something the arguments can fix: tell the user/);
    }
  });

  it('a profile that does not exist: auth, with the profiles there are', async () => {
    const r = await listPostsWith({ SOCIALPUB_PROFILE: 'nope' });
    expect(r.structuredContent).toMatchObject({ code: 'auth', message: expect.stringContaining('there is no profile named "nope"') });
    expect(r.structuredContent.hints).toEqual([expect.stringMatching(/tell the user/), expect.stringContaining('auth login --profile nope'), 'there are no profiles yet']);
  });
});

describe('started by hand on a terminal', () => {
  it('says what it waits for on stderr; started by an assistant (a pipe), it does not', async () => {
    const stderrOf = async (tty: boolean) => {
      const mcp = startMcpPipe([], { TZ: 'UTC' }, { stdinIsTTY: tty });
      await mcp.initialize();
      expect(await mcp.close()).toBe(0);
      return mcp.stderr();
    };
    expect(await stderrOf(true)).toContain('socialpub mcp: waiting for an MCP client on stdin (an assistant starts this command itself: see `socialpub help mcp`); Ctrl-C stops it\n');
    expect(await stderrOf(false)).not.toContain('waiting for an MCP client');
  });
});
