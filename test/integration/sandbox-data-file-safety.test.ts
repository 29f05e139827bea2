// `--data FILE` is never damaged by what it meets on disk: a second sandbox on the same file
// (another process) is refused, naming the first one's pid, and a lock left by a kill -9 does
// not block a restart; a damaged log (header, a complete line, a line mid-file whose JSON still
// parses) stops start-up with the file, the line and what to do, and leaves every file as it
// was; a torn last line is dropped with a notice; a log from before checksums still loads; a
// symbolic link planted as the log or the snapshot is refused and its target left alone.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, StateFileError, type Sandbox } from '../../src/sandbox/index.js';
import { bundleChildScript } from '../helpers/child-script.js';
import { allRows, call, text } from './sandbox-support.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-safety-'));
const children = new Set<ChildProcess>();
let childScript = '';

beforeAll(async () => {
  // A sandbox in a process of its own: the library, bundled as it is in the source.
  childScript = await bundleChildScript(
    `import { startSandbox } from './src/sandbox/index.ts';
        const sb = await startSandbox({ port: 0, dataFile: process.argv[2] });
        process.on('SIGTERM', () => sb.close().then(() => process.exit(0)));
        console.log(JSON.stringify({ url: sb.url, pid: process.pid }));`,
    join(dir, 'child.mjs'),
  );
}, 60_000);
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function startChild(file: string): Promise<{ child: ChildProcess; pid: number; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, [childScript, file], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ready = await new Promise<{ pid: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`child exited ${code}: ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as { pid: number }));
  });
  return { child, pid: ready.pid, exited };
}

const folder = (name: string) => mkdtempSync(join(dir, `${name}-`));

/** Every file of a folder with its bytes and mode: "left untouched" means this is unchanged. */
function image(of: string): Record<string, { bytes: string; mode: number }> {
  return Object.fromEntries(readdirSync(of).map((n) => [n, { bytes: readFileSync(join(of, n)).toString('base64'), mode: statSync(join(of, n)).mode & 0o777 }]));
}

/**
 * A data folder as a kill -9 leaves it: a sandbox writes `count` posts, its files are copied
 * while it runs, and it is then stopped. Returns the copy's data file and the posts written.
 */
async function crashed(name: string, count: number): Promise<{ file: string; posts: { id: string; text: string }[] }> {
  const live = join(folder(`${name}-live`), 'state.json');
  const sb = await startSandbox({ port: 0, dataFile: live, seed: 5 });
  const posts: { id: string; text: string }[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const r = await call(sb, 'POST', '/v1/posts', { key: sb.key('demo'), body: { payloads: text(['threads'], `post ${i}`) } });
      expect(r.status).toBe(201);
      posts.push({ id: r.body.id, text: r.body.payloads.threads.text });
    }
    const to = folder(name);
    for (const n of ['state.json', 'state.json.wal']) copyFileSync(join(live, '..', n), join(to, n));
    return { file: join(to, 'state.json'), posts };
  } finally {
    await sb.close();
  }
}

async function postsOf(sb: Sandbox): Promise<{ id: string; text: string }[]> {
  return (await allRows(sb, sb.key('demo'), '/v1/posts')).rows.map((p: any) => ({ id: p.id, text: p.payloads.threads.text })).reverse();
}

const logLines = (file: string) => readFileSync(`${file}.wal`, 'utf8').split('\n');

async function refusal(file: string): Promise<StateFileError> {
  const err = await startSandbox({ port: 0, dataFile: file }).then(
    async (sb) => {
      await sb.close();
      throw new Error('the sandbox started');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StateFileError);
  return err as StateFileError;
}

describe('one sandbox per data file', () => {
  it('refuses a second sandbox (another process holds the file), naming its pid; a lock left by kill -9 does not block', async () => {
    const file = join(folder('lock'), 'state.json');
    const first = await startChild(file);
    expect(readFileSync(`${file}.lock`, 'utf8')).toContain(`"pid":${first.pid}`);
    const err = await refusal(file);
    expect(err.message).toMatch(new RegExp(`state\\.json is in use by another sandbox \\(pid ${first.pid}, started .*\\); stop that one first, or pass another --data file`));

    first.child.kill('SIGKILL');
    await first.exited;
    // The dead process's lock is still there, and stale.
    expect(readFileSync(`${file}.lock`, 'utf8')).toContain(`"pid":${first.pid}`);
    const second = await startSandbox({ port: 0, dataFile: file });
    try {
      expect(readFileSync(`${file}.lock`, 'utf8')).toContain(`"pid":${process.pid}`);
      // This process holds it now: a second sandbox here is refused too.
      expect((await refusal(file)).message).toMatch(new RegExp(`pid ${process.pid}`));
    } finally {
      await second.close();
    }
    // A clean stop leaves no lock.
    expect(readdirSync(join(file, '..')).sort()).toEqual(['state.json']);
  }, 60_000);

  it.runIf(process.platform !== 'win32')('knows the file under another spelling of its folder (a link to it)', async () => {
    const real = folder('spelling');
    const alias = join(dir, `alias-${Date.now()}`);
    symlinkSync(real, alias);
    const first = await startSandbox({ port: 0, dataFile: join(real, 'state.json') });
    try {
      expect((await refusal(join(alias, 'state.json'))).message).toMatch(new RegExp(`is in use by another sandbox \\(pid ${process.pid},`));
    } finally {
      await first.close();
    }
  });

  it('a sandbox stopped cleanly (SIGTERM) releases the file for the next one', async () => {
    const file = join(folder('release'), 'state.json');
    const first = await startChild(file);
    first.child.kill('SIGTERM');
    await first.exited;
    expect(readdirSync(join(file, '..'))).not.toContain('state.json.lock');
    const next = await startChild(file);
    next.child.kill('SIGTERM');
    await next.exited;
  }, 60_000);
});

describe('a damaged log stops start-up and loses nothing', () => {
  it('one byte changed in the header line', async () => {
    const { file } = await crashed('header', 3);
    const lines = logLines(file);
    lines[0] = lines[0]!.replace('"generation":', '"generatiom":');
    writeFileSync(`${file}.wal`, lines.join('\n'));
    const before = image(join(file, '..'));
    const err = await refusal(file);
    expect(err.message).toMatch(/state\.json\.wal is damaged at line 1 \(its header does not match its checksum\); the sandbox changed nothing\. To go on, restore it from a backup, or .*mv /);
    expect(image(join(file, '..'))).toEqual(before);
  });

  it('a complete (acknowledged) last line damaged', async () => {
    const { file } = await crashed('last', 3);
    const lines = logLines(file);
    expect(lines.at(-1)).toBe('');
    const n = lines.length - 1;
    lines[n - 1] = lines[n - 1]!.replace('post 2', 'post X');
    writeFileSync(`${file}.wal`, lines.join('\n'));
    const before = image(join(file, '..'));
    const err = await refusal(file);
    expect(err.message).toContain(`is damaged at line ${n} (its checksum does not match); the sandbox changed nothing`);
    expect(err.message).toContain(`head -n ${n - 1} '${file}.wal'`);
    expect(image(join(file, '..'))).toEqual(before);
  });

  it('a line mid-file whose JSON still parses (detected by its checksum, not guessed)', async () => {
    const { file } = await crashed('middle', 4);
    const lines = logLines(file);
    const n = lines.findIndex((l) => l.includes('post 1')) + 1;
    expect(n).toBeGreaterThan(1);
    expect(n).toBeLessThan(lines.length - 1);
    lines[n - 1] = lines[n - 1]!.replace('post 1', 'post 7');
    writeFileSync(`${file}.wal`, lines.join('\n'));
    const before = image(join(file, '..'));
    expect((await refusal(file)).message).toContain(`is damaged at line ${n} (its checksum does not match)`);
    expect(image(join(file, '..'))).toEqual(before);
  });

  it('a log that goes with a newer snapshot than the one beside it (an older copy put back)', async () => {
    const { file } = await crashed('older-snapshot', 2);
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...snapshot, journal: snapshot.journal - 1 }));
    const before = image(join(file, '..'));
    expect((await refusal(file)).message).toMatch(/state\.json\.wal goes with a newer snapshot \(generation \d+\) than the one beside it .*the sandbox changed nothing/);
    expect(image(join(file, '..'))).toEqual(before);
  });

  it('a torn last line (no newline) is dropped with a notice; a whole line missing only its newline is kept', async () => {
    const { file, posts } = await crashed('torn', 3);
    const whole = readFileSync(`${file}.wal`, 'utf8');
    writeFileSync(`${file}.wal`, `${whole}0badc0de [{"t":"post","w":1,"po`);
    const sb = await startSandbox({ port: 0, dataFile: file });
    try {
      expect(sb.notices).toHaveLength(1);
      expect(sb.notices[0]).toMatch(/dropped the last line of the sandbox log .*state\.json\.wal \(line \d+, 31 bytes\): a write cut short by a crash, never acknowledged/);
      expect(await postsOf(sb)).toEqual(posts);
    } finally {
      await sb.close();
    }

    const { file: file2, posts: posts2 } = await crashed('newline', 3);
    writeFileSync(`${file2}.wal`, readFileSync(`${file2}.wal`, 'utf8').replace(/\n$/, ''));
    const again = await startSandbox({ port: 0, dataFile: file2 });
    try {
      expect(again.notices).toEqual([]);
      expect(await postsOf(again)).toEqual(posts2);
    } finally {
      await again.close();
    }
  });

  it('reads a log written before checksums, and writes the new format from then on', async () => {
    const { file, posts } = await crashed('legacy', 3);
    const old = logLines(file).map((l) => l.replace(/^[0-9a-f]{8} /, '').replace('"version":2,', ''));
    expect(old[0]).toMatch(/^\{"format":"socialpub-sandbox-log","generation":\d+\}$/);
    writeFileSync(`${file}.wal`, old.join('\n'));
    const sb = await startSandbox({ port: 0, dataFile: file });
    try {
      expect(await postsOf(sb)).toEqual(posts);
      expect(logLines(file)[0]).toMatch(/^[0-9a-f]{8} \{"format":"socialpub-sandbox-log","version":2,"generation":\d+\}$/);
    } finally {
      await sb.close();
    }
  });
});

describe('symbolic links are refused, their targets left alone', () => {
  function victim(): { path: string; check: () => void } {
    const path = join(folder('victim'), 'precious.txt');
    writeFileSync(path, 'someone else’s data\n');
    chmodSync(path, 0o644);
    return {
      path,
      check: () => {
        expect(readFileSync(path, 'utf8')).toBe('someone else’s data\n');
        expect(statSync(path).mode & 0o777).toBe(0o644);
      },
    };
  }

  it.runIf(process.platform !== 'win32')('a planted FILE.wal link (with or without a snapshot)', async () => {
    const v = victim();
    const fresh = folder('wal-link');
    symlinkSync(v.path, join(fresh, 'state.json.wal'));
    expect((await refusal(join(fresh, 'state.json'))).message).toMatch(/state\.json\.wal is a symbolic link; the sandbox never follows links for its data .*replace the link with the file itself/);
    v.check();

    const { file } = await crashed('wal-link-restart', 2);
    rmSync(`${file}.wal`);
    symlinkSync(v.path, `${file}.wal`);
    expect((await refusal(file)).message).toMatch(/is a symbolic link/);
    v.check();
  });

  it.runIf(process.platform !== 'win32')('a snapshot that is a link', async () => {
    const v = victim();
    const data = folder('snapshot-link');
    mkdirSync(join(data, 'sub'));
    symlinkSync(v.path, join(data, 'sub', 'state.json'));
    expect((await refusal(join(data, 'sub', 'state.json'))).message).toMatch(/sub\/state\.json is a symbolic link/);
    v.check();
  });
});
