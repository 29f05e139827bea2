// What `socialpub sandbox` prints: the ready line in the contract's exact spacing, and a banner
// that shows no key and no webhook secret in full: its login line reads the demo key from a file.
import { describe, expect, it } from 'vitest';
import { banner, readyLine, type SecretWhere } from '../../src/cli/commands/sandbox/banner.js';
import { planSandbox } from '../../src/cli/commands/sandbox/flags.js';
import type { SandboxFlags } from '../../src/cli/commands/sandbox/index.js';
import { plainColors } from '../../src/output/colors.js';

const sandbox = {
  url: 'http://127.0.0.1:8787',
  workspaces: [
    { name: 'demo', apiKey: 'sk_sandbox_AAAAAAAAAAAAAAAAAAAAAAAAAAAAdemo', addon: true },
    { name: 'other', apiKey: 'sk_sandbox_BBBBBBBBBBBBBBBBBBBBBBBBBBBother', addon: true },
    { name: 'lapsed', apiKey: 'sk_sandbox_CCCCCCCCCCCCCCCCCCCCCCCCCCCCClaps', addon: false },
  ],
  webhookSecret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0',
  restored: false,
  fixtures: 1_000_000,
};

const defaults: SandboxFlags = { port: '8787', host: '127.0.0.1', failureRate: '0.2', writeLimit: '100', readLimit: '10000', fixtures: '0', latency: '0ms', chaos: '0', chaosSlow: '35s' };

describe('sandbox output', () => {
  it('prints the ready line exactly as the contract shows it', () => {
    expect(readyLine(sandbox)).toBe(
      '{"baseUrl": "http://127.0.0.1:8787", "workspaces": [{"name": "demo", "apiKey": "sk_sandbox_AAAAAAAAAAAAAAAAAAAAAAAAAAAAdemo", "addon": true}, {"name": "other", "apiKey": "sk_sandbox_BBBBBBBBBBBBBBBBBBBBBBBBBBBother", "addon": true}, {"name": "lapsed", "apiKey": "sk_sandbox_CCCCCCCCCCCCCCCCCCCCCCCCCCCCClaps", "addon": false}], "webhookSecret": "whsec_c2VjcmV0c2VjcmV0c2VjcmV0"}',
    );
    expect(JSON.parse(readyLine(sandbox))).toEqual({ baseUrl: sandbox.url, workspaces: sandbox.workspaces, webhookSecret: sandbox.webhookSecret });
  });

  it('masks every key, the demo one too, and says where to get them', () => {
    const plan = planSandbox({ ...defaults, webhookUrl: 'http://127.0.0.1:4567/hooks', fixtures: '1_000_000', chaos: '5%', seed: '9' }, {});
    const keyFile = '/tmp/socialpub-sandbox-x1/demo.key';
    for (const json of [false, true]) {
      const text = banner({ sandbox, options: plan.options, profile: undefined, json, colors: plainColors, ...(json ? {} : { keyFile }) });
      for (const w of sandbox.workspaces) {
        expect(text).not.toContain(w.apiKey);
        expect(text).toContain(`…${w.apiKey.slice(-4)}`);
      }
      expect(text).not.toMatch(/sk_sandbox_\w{8}/);
      expect(text).toContain('http://127.0.0.1:4567/hooks');
      expect(text).toContain('1,000,000 results in demo');
      expect(text).toContain('5% of requests');
      // On loopback, the login line reads the key from the 0600 file on stdin.
      expect(text).toMatch(json ? /ready line on stdout/ : /socialpub auth login --with-key --profile sandbox --base-url http:\/\/127\.0\.0\.1:8787 < \/tmp\/socialpub-sandbox-x1\/demo\.key\n/);
    }
    // No key file (a temporary folder that cannot be written): no login line, the ways that need none.
    const without = banner({ sandbox, options: plan.options, profile: undefined, json: false, colors: plainColors });
    expect(without).not.toMatch(/auth login|sk_sandbox_\w{8}/);
    expect(without).toContain('Keys are masked here. Save the demo key as a profile at start: socialpub sandbox --write-profile');
    // A path with a space or a quote stays one shell word.
    expect(banner({ sandbox, options: plan.options, profile: undefined, json: false, colors: plainColors, keyFile: "/tmp/it's here/demo.key" })).toContain(`< '/tmp/it'\\''s here/demo.key'`);
  });

  it('says --accounts is ignored on a restored data file (accounts are seeded at its first start only)', () => {
    const plan = planSandbox({ ...defaults, accounts: '40' }, {});
    const fresh = banner({ sandbox, options: plan.options, profile: undefined, json: false, colors: plainColors });
    expect(fresh).not.toContain('--accounts ignored');
    const restored = banner({ sandbox: { ...sandbox, restored: true }, options: plan.options, profile: undefined, json: false, colors: plainColors });
    expect(restored).toMatch(/accounts +from the data file; --accounts ignored/);
  });

  it('never shows the webhook secret in full: masked as listen shows it, with the listen command that gets it from where it is', () => {
    const plan = planSandbox({ ...defaults, webhookUrl: 'http://127.0.0.1:4567/hooks' }, {});
    const masked = `whsec_…${sandbox.webhookSecret.slice(-4)}`;
    const show = (secret: SecretWhere | undefined, json = false, options = plan.options, url = sandbox.url) => {
      const text = banner({ sandbox: { ...sandbox, url }, options, profile: undefined, json, colors: plainColors, secret });
      expect(text).not.toContain(sandbox.webhookSecret);
      expect(text).toContain(masked);
      return text;
    };
    // Generated and saved by --write-profile: listen reads the 0600 file.
    const saved = show({ source: 'file', file: '/home/me/.config/socialpub/sandbox.webhook-secret' });
    expect(saved).toContain(`signed with ${masked} (in /home/me/.config/socialpub/sandbox.webhook-secret)`);
    expect(saved).toContain('socialpub listen --secret-file /home/me/.config/socialpub/sandbox.webhook-secret --path /hooks');
    expect(show({ source: 'file', file: "/tmp/my secret's" })).toContain(`socialpub listen --secret-file '/tmp/my secret'\\''s' --path /hooks`);
    // Generated and kept only in this process: how to get it, no listen command that cannot work.
    const only = show({ source: 'generated' });
    expect(only).toMatch(/shown masked\. To verify deliveries with socialpub listen, start with --write-profile\n\(it saves the secret in a 0600 file for listen --secret-file\), or take it from the --json ready line\./);
    expect(only).not.toMatch(/socialpub listen( |$)/m);
    // --json: the ready line on stdout has it.
    expect(show({ source: 'generated' }, true)).toContain("socialpub listen --path /hooks   # with SOCIALPUB_WEBHOOK_SECRET set to the ready line's webhookSecret");
    // Given by the user: the same place.
    expect(show({ source: 'env' }, false, { ...plan.options, webhookSecret: sandbox.webhookSecret })).toContain('socialpub listen --path /hooks   # with the same SOCIALPUB_WEBHOOK_SECRET');
    expect(show({ source: 'flag' }, false, { ...plan.options, webhookSecret: sandbox.webhookSecret })).toContain('socialpub listen --secret-file FILE --path /hooks');
    // Reachable from elsewhere, and without --webhook-url: masked too.
    show({ source: 'generated' }, false, plan.options, 'http://192.0.2.10:8787');
    const none = show(undefined, true, planSandbox(defaults, {}).options);
    expect(none).toContain(`add --webhook-url http://127.0.0.1:4567/webhooks for socialpub listen; secret ${masked})`);
    expect(none).not.toMatch(/socialpub listen( |$)/m);
  });

  it('names the dashboard and the OpenAPI document; off loopback the dashboard URL carries its token', () => {
    const local = banner({ sandbox: { ...sandbox, dashboardUrl: `${sandbox.url}/` }, options: {}, profile: undefined, json: false, colors: plainColors });
    expect(local).toMatch(/dashboard +http:\/\/127\.0\.0\.1:8787\/ +\(in a browser\)/);
    expect(local).toContain('openapi     http://127.0.0.1:8787/openapi.json');
    const open = banner({ sandbox: { ...sandbox, url: 'http://0.0.0.0:8787', dashboardUrl: 'http://0.0.0.0:8787/?token=tok_abcdefghijklmnop' }, options: {}, profile: undefined, json: true, colors: plainColors });
    expect(open).toContain('http://0.0.0.0:8787/?token=tok_abcdefghijklmnop');
    expect(open).toMatch(/anyone with it sees every workspace/);
  });

  it('reads flags into options, the secret from the environment too', () => {
    const plan = planSandbox({ ...defaults, port: '0', latency: '20ms', failureRate: '25%', writeProfile: true }, { SOCIALPUB_WEBHOOK_SECRET: sandbox.webhookSecret });
    expect(plan.options).toMatchObject({ port: 0, latencyMs: 20, failureRate: 0.25, webhookSecret: sandbox.webhookSecret, chaosSlowMs: 35_000 });
    expect(plan.profile).toBe('sandbox');
    expect(plan.secret).toMatchObject({ source: 'env', from: 'SOCIALPUB_WEBHOOK_SECRET', warning: undefined });
    const flagged = planSandbox({ ...defaults, webhookSecret: sandbox.webhookSecret }, {});
    expect(flagged.secret).toMatchObject({ source: 'flag', from: '--webhook-secret', warning: expect.stringMatching(/visible to other users/) });
    expect(flagged.options.webhookSecret).toBe(sandbox.webhookSecret);
    expect(() => planSandbox({ ...defaults, webhookSecretFile: '/nonexistent/secret' }, {})).toThrow(/--webhook-secret-file: cannot read \/nonexistent\/secret: no such file/);
    expect(() => planSandbox({ ...defaults, webhookSecret: 'whsec_c2hvcnQ=' }, {})).toThrow(/--webhook-secret: not a whsec_<base64> secret of at least 12 bytes/);
    expect(() => planSandbox({ ...defaults, readLimit: '0' }, {})).toThrow(/--read-limit/);
    expect(() => planSandbox({ ...defaults, chaos: '-1' }, {})).toThrow(/--chaos/);
  });
});
