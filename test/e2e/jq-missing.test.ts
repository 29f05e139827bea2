// An installation that lost dist/chunks/jq.wasm: --jq says so in one line (what is missing, reinstall)
// and exits 1, with no stack and none of jq-web's own source (its failed load used to end the process
// from inside it, printing 17 kB of minified code). The built program is copied so that the checkout's
// own wasm stays where it is.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from './ensure-built.js';

const dir = mkdtempSync(join(tmpdir(), 'jq-missing-'));
const bin = join(dir, 'app', 'bin', 'socialpub.js');
const wasm = join(dir, 'app', 'dist', 'chunks', 'jq.wasm');

beforeAll(async () => {
  await ensureBuilt();
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(dir, 'app', part), { recursive: true });
  rmSync(wasm);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd: dir, env: { PATH: process.env.PATH, HOME: dir, SOCIALPUB_CONFIG_DIR: join(dir, 'config'), CI: 'true', NO_COLOR: '1' } });

describe('an installation without jq.wasm', () => {
  it('--jq is one line naming the missing file and the fix, exit 1, no stack', () => {
    const r = run(['profile', 'list', '-o', 'ndjson', '--jq', '.name']);
    const message = `--jq cannot run: this installation of socialpub is missing ${wasm}; reinstall it (npm install -g socialpub)`;
    // The line for people, then (structured output) the contract's JSON error object: nothing else.
    expect(r.stderr).toBe(`error: ${message}\n${JSON.stringify({ error: { code: 'ERROR', message, status: null, requestId: null, exitCode: 1, hints: [] } })}\n`);
    expect(r.stdout).toBe('');
    expect(r.status).toBe(1);
  });

  it('everything else still works', () => {
    const r = run(['profile', 'list', '-o', 'ndjson']);
    expect(r.status).toBe(0);
  });
});
