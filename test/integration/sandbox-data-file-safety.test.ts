// `--data FILE` is never damaged by what it meets on disk, and never serves what it cannot
// trust: a second sandbox on the same database (another process) is refused, naming the first
// one's pid, and a lock left by a kill -9 does not block a restart; a file that is not SQLite,
// a SQLite database of something else, a damaged database (PRAGMA quick_check, whole for a
// small one; sandbox-damage-while-serving.test.ts for a large one) and a data file of the
// earlier JSON format are refused with what to do, and left exactly as they were; a symbolic
// link planted as the database, its WAL or its media folder is refused, its target left
// alone; media files no row names are removed at start.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Of } from '../../src/sandbox/db/blobs.js';
import { sqlite } from '../../src/sandbox/db/sqlite.js';
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
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
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

/** A database holding `count` posts, stopped cleanly. */
async function written(name: string, count: number): Promise<{ file: string; posts: { id: string; text: string }[] }> {
  const file = join(folder(name), 'state.db');
  const sb = await startSandbox({ port: 0, dataFile: file, seed: 5, writeLimit: 1_000 });
  const posts: { id: string; text: string }[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const r = await call(sb, 'POST', '/v1/posts', { key: sb.key('demo'), body: { payloads: text(['threads'], `post ${i}`) } });
      expect(r.status).toBe(201);
      posts.push({ id: r.body.id, text: r.body.payloads.threads.text });
    }
    return { file, posts };
  } finally {
    await sb.close();
  }
}

async function postsOf(sb: Sandbox): Promise<{ id: string; text: string }[]> {
  return (await allRows(sb, sb.key('demo'), '/v1/posts')).rows.map((p: any) => ({ id: p.id, text: p.payloads.threads.text })).reverse();
}

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
    const file = join(folder('lock'), 'state.db');
    const first = await startChild(file);
    expect(readFileSync(`${file}.lock`, 'utf8')).toContain(`"pid":${first.pid}`);
    const err = await refusal(file);
    expect(err.message).toMatch(new RegExp(`state\\.db is in use by another sandbox \\(pid ${first.pid}, started .*\\); stop that one first, or pass another --data file`));

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
    expect(readdirSync(join(file, '..')).sort()).toEqual(['state.db']);
  }, 60_000);

  it.runIf(process.platform !== 'win32')('knows the file under another spelling of its folder (a link to it)', async () => {
    const real = folder('spelling');
    const alias = join(dir, `alias-${Date.now()}`);
    symlinkSync(real, alias);
    const first = await startSandbox({ port: 0, dataFile: join(real, 'state.db') });
    try {
      expect((await refusal(join(alias, 'state.db'))).message).toMatch(new RegExp(`is in use by another sandbox \\(pid ${process.pid},`));
    } finally {
      await first.close();
    }
  });

  it('a sandbox stopped cleanly (SIGTERM) releases the file for the next one', async () => {
    const file = join(folder('release'), 'state.db');
    const first = await startChild(file);
    first.child.kill('SIGTERM');
    await first.exited;
    expect(readdirSync(join(file, '..'))).not.toContain('state.db.lock');
    const next = await startChild(file);
    next.child.kill('SIGTERM');
    await next.exited;
  }, 60_000);
});

describe('a file the sandbox cannot trust is refused, and left as it was', () => {
  it('a file that is not SQLite', async () => {
    const data = folder('junk');
    writeFileSync(join(data, 'state.db'), 'hello, these are my notes\n');
    const before = image(data);
    expect((await refusal(join(data, 'state.db'))).message).toMatch(/state\.db is not a sandbox database \(not SQLite\); it was left untouched: pass another --data file/);
    expect(image(data)).toEqual(before);
  });

  it('a data file of the earlier format (JSON snapshot + .wal) names the fix', async () => {
    const data = folder('old-format');
    writeFileSync(join(data, 'state.json'), JSON.stringify({ format: 'socialpub-sandbox-state', version: 2, workspaces: [] }), { mode: 0o600 });
    writeFileSync(join(data, 'state.json.wal'), '{"socialpub-sandbox-log":1}\n', { mode: 0o600 });
    const before = image(data);
    const err = await refusal(join(data, 'state.json'));
    expect(err.message).toMatch(/state\.json is a sandbox data file of the earlier format \(a JSON snapshot with .*state\.json\.wal\); this sandbox keeps its data in a SQLite database\. Start a fresh one: pass another --data file \(for example .*state\.db\)/);
    expect(image(data)).toEqual(before);
  });

  it('a SQLite database of something else', async () => {
    const data = folder('foreign');
    const db = new (sqlite().DatabaseSync)(join(data, 'state.db'));
    db.exec('CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES (\'mine\')');
    db.close();
    const before = image(data);
    expect((await refusal(join(data, 'state.db'))).message).toMatch(/state\.db is a SQLite database of something else, not a sandbox's/);
    expect(image(data)).toEqual(before);
  });

  it('a damaged database (a page overwritten): refused by quick_check, never served', async () => {
    const { file } = await written('damaged', 150);
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(8 * 4096);
    // Garbage over a page in the middle: the b-tree of the posts table no longer holds together.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, Math.floor(size / 4096 / 2) * 4096);
    closeSync(fd);
    const before = image(join(file, '..'));
    expect((await refusal(file)).message).toMatch(/state\.db is damaged \(SQLite: .*\); the sandbox will not serve it\. Restore it from a backup, try `sqlite3 .*state\.db \.recover` into a new file, or pass another --data file/);
    expect(image(join(file, '..'))).toEqual(before);
  });

  it('an intact database restarts with everything in it (the control for the cases above)', async () => {
    const { file, posts } = await written('intact', 30);
    const again = await startSandbox({ port: 0, dataFile: file });
    try {
      expect(await postsOf(again)).toEqual(posts);
    } finally {
      await again.close();
    }
  });
});

describe('symbolic links', () => {
  function victim(): { path: string; check: () => void } {
    const path = join(folder('victim'), 'precious.txt');
    writeFileSync(path, 'someone else’s data\n', { mode: 0o644 });
    return {
      path,
      check: () => {
        expect(readFileSync(path, 'utf8')).toBe('someone else’s data\n');
        expect(statSync(path).mode & 0o777).toBe(0o644);
      },
    };
  }

  it.runIf(process.platform !== 'win32')('a database that is a link', async () => {
    const v = victim();
    const data = folder('db-link');
    mkdirSync(join(data, 'sub'));
    symlinkSync(v.path, join(data, 'sub', 'state.db'));
    expect((await refusal(join(data, 'sub', 'state.db'))).message).toMatch(/sub\/state\.db is a symbolic link; the sandbox never follows links for its data .*replace the link with the file itself, or pass the real path as --data/);
    v.check();
  });

  it.runIf(process.platform !== 'win32')('a planted WAL or media folder link, beside a new or an existing database', async () => {
    const v = victim();
    const fresh = folder('wal-link');
    symlinkSync(v.path, join(fresh, 'state.db-wal'));
    expect((await refusal(join(fresh, 'state.db'))).message).toMatch(/state\.db-wal is a symbolic link/);
    v.check();

    const { file } = await written('media-link', 2);
    symlinkSync(join(v.path, '..'), `${file}.media`);
    expect((await refusal(file)).message).toMatch(/state\.db\.media is a symbolic link/);
    v.check();
  });
});

describe('media files beside the database', () => {
  it('bytes no media row names (a commit that failed after the write) and temporary files are removed at start; named bytes and foreign files stay', async () => {
    const { file } = await written('media-strays', 1);
    const media = `${file}.media`;
    mkdirSync(media, { mode: 0o700 });
    const named = sha256Of(Buffer.from('named bytes'));
    const stray = sha256Of(Buffer.from('bytes whose row never committed'));
    for (const name of [named, stray, `${stray}.4242.tmp`, 'notes.txt']) writeFileSync(join(media, name), name, { mode: 0o600 });
    const db = new (sqlite().DatabaseSync)(file);
    db.prepare('INSERT INTO media (workspace, idx, name, mime_type, size_bytes, created_at, sha256, kept_bytes) VALUES (1, 0, ?, ?, 11, 0, ?, 11)').run('a.png', 'image/png', named);
    db.close();
    const sb = await startSandbox({ port: 0, dataFile: file });
    try {
      expect(readdirSync(media).sort()).toEqual([named, 'notes.txt'].sort());
      expect(readFileSync(join(media, named), 'utf8')).toBe(named);
    } finally {
      await sb.close();
    }
  });
});
