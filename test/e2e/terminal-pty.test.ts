// The built binary on a real terminal (a pty from `script`, util-linux): long tables go through
// the pager (here a small node script standing in for less, so the test can see what it got),
// never when piped or with --no-pager; and a bulk run's progress line is cleared before every
// row reaches the same terminal, so no row is glued to a status line.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { BIN, ensureBuilt } from './ensure-built.js';

const hasScript = existsSync('/usr/bin/script') && spawnSync('script', ['-qec', 'true', '/dev/null']).status === 0;
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe.skipIf(!hasScript)('on a real terminal', () => {
  let sb: Sandbox;
  let tmp: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    await ensureBuilt();
    sb = await startSandbox({ port: 0, seed: 5, fixtures: 80, writeLimit: 100_000 });
    tmp = mkdtempSync(join(tmpdir(), 'socialpub-pty-'));
    const pager = join(tmp, 'pager.cjs');
    writeFileSync(pager, "let n=0;process.stdin.on('data',(c)=>{n+=c.length});process.stdin.on('end',()=>{process.stdout.write(`[pager read ${n} bytes]\\n`)});");
    env = {
      PATH: process.env.PATH,
      HOME: tmp,
      TERM: 'xterm-256color',
      SOCIALPUB_CONFIG_DIR: join(tmp, 'config'),
      SOCIALPUB_BASE_URL: sb.url,
      SOCIALPUB_API_KEY: sb.key('demo'),
      SOCIALPUB_PAGER: `${process.execPath} ${pager}`,
      NO_COLOR: '1',
    };
  });
  afterAll(async () => {
    await sb?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  // Asynchronous: the sandbox answers from this very process, so it must not be blocked.
  const run = promisify(execFile);
  const onTerminal = async (args: string[], columns = 100) =>
    (await run('script', ['-qec', `stty cols ${columns} rows 30; ${[process.execPath, BIN, ...args].map(shellQuote).join(' ')}`, '/dev/null'], { env, timeout: 30_000 })).stdout;

  it('pages a table on the terminal, and never with --no-pager or when piped', async () => {
    expect(await onTerminal(['results', 'list', '--limit', '50'])).toMatch(/\[pager read \d+ bytes\]/);
    const unpaged = await onTerminal(['results', 'list', '--limit', '50', '--no-pager']);
    expect(unpaged).not.toContain('[pager read');
    expect(unpaged).toMatch(/res_\w+/);
    const piped = (await run(process.execPath, [BIN, 'results', 'list', '--limit', '50'], { env })).stdout;
    expect(piped).not.toContain('[pager read');
  });

  it("a bulk run's progress line is cleared before each row reaches the terminal", async () => {
    const file = join(tmp, 'campaign.ndjson');
    const at = (i: number) => new Date(Date.now() + 86_400_000 + i * 60_000).toISOString();
    writeFileSync(file, Array.from({ length: 12 }, (_, i) => JSON.stringify({ payloads: { bluesky: { text: `row ${i}` } }, scheduledAt: at(i) })).join('\n') + '\n');
    const screen = await onTerminal(['posts', 'schedule', '--from-file', file, '--no-pager']);
    // Each row line starts clean: no status text ("n/12 · …") in front of it.
    // What the terminal shows of each line: what follows the last carriage return (the status
    // line is erased with \r and ESC[2K before a row is written over it).
    const visible = screen.split('\r\n').map((l) => l.split('\r').pop()!.replace(/\u001b\[2K/g, ''));
    const rowLines = visible.filter((l) => /^\d+\s+\d+\s+created\b/.test(l));
    expect(rowLines, JSON.stringify(screen)).toHaveLength(12);
    for (const line of rowLines) expect(line).not.toMatch(/\d+\/12 ·/);
    // Rows stream as they finish: the first row is on screen before the last one is sent.
    expect(screen.indexOf('post_')).toBeLessThan(screen.indexOf('11/12 · scheduling row 12'));
    expect(screen).toMatch(/12 rows in .*: 12 created/);
  });
});
