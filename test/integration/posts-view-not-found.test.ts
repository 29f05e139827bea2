// posts view for an id this workspace does not have (unknown, or another workspace's): the post's
// own 404 decides the message even when the results request fails too and answers first. In front
// of the sandbox, a proxy plays a service whose results list answers 404 for such an id, and holds
// the post's answer back until that 404 has gone out, so the order is certain rather than a race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Post } from '../../src/wire/schemas.js';
import { runCli } from '../helpers/run-cli.js';
import { resultsFailFirst } from '../helpers/route-proxy.js';
import { cliEnv, manualSandbox, sandboxClock, type ManualSandbox } from './posts-support.js';

let sb: ManualSandbox;
let proxy: Awaited<ReturnType<typeof resultsFailFirst>>;
let othersPost: Post;
let ownPost: Post;

beforeAll(async () => {
  sb = await manualSandbox({ fixtures: 0 });
  proxy = await resultsFailFirst(sb.url);
  const create = async (workspace: 'demo' | 'other') => {
    const r = await runCli(['posts', 'create', '--platform', 'bluesky', '--text', `a draft of ${workspace}`, '--json'], { env: { ...cliEnv(sb), SOCIALPUB_API_KEY: sb.key(workspace) } });
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as Post;
  };
  othersPost = await create('other');
  ownPost = await create('demo');
});
afterAll(async () => {
  await proxy.close();
  await sb.close();
});

const view = (id: string) => runCli(['posts', 'view', id], { clock: sandboxClock(sb.clock), env: { ...cliEnv(sb), SOCIALPUB_BASE_URL: proxy.url } });

describe('posts view when the post and its results both fail', () => {
  it('an unknown id: the message names the post, exit 4 (not found), though the results 404 came first', async () => {
    const before = proxy.resultsAsked.length;
    const r = await view('post_000000000000');
    expect(proxy.resultsAsked.slice(before)).toEqual(['post_000000000000']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('post post_000000000000 not found in this workspace');
    expect(r.stderr).not.toContain('post-results');
  });

  it("another workspace's id: the same, naming that post", async () => {
    const before = proxy.resultsAsked.length;
    const r = await view(othersPost.id);
    expect(proxy.resultsAsked.slice(before)).toEqual([othersPost.id]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(`post ${othersPost.id} not found in this workspace`);
    expect(r.stderr).not.toContain('post-results');
  });

  it('only the results fail (the post is there): that failure is still the answer', async () => {
    const r = await view(ownPost.id);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('/api/v1/post-results');
    expect(r.stderr).not.toContain(`post ${ownPost.id} not found`);
    expect(r.stdout).toBe('');
  });
});
