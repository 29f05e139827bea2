// Text held back on disk until the end: a report whose first lines depend on every row (a bulk
// check's `accepted`, its failures before its passes) keeps what must wait in a temporary file,
// so 20,000 judged rows take the memory of a few. The folder is private (0700, files 0600: the
// text is the user's posts) and removed by discard().
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Written to the file, and read back, this many characters at a time: each piece stays under the
 * size V8 gives a heap object of its own (large objects are what made a bulk check's memory grow).
 */
const HELD_CHARS = 32 * 1024;

export class SpoolFolder {
  private dir: string | undefined;
  private files = 0;
  private readonly open = new Set<Spool>();

  /** A new spool; the folder is made when a spool first needs its file (a short report never does). */
  spool(): Spool {
    const name = `${this.files++}.txt`;
    const spool = new Spool(() => join((this.dir ??= mkdtempSync(join(tmpdir(), 'socialpub-report-'))), name));
    this.open.add(spool);
    return spool;
  }

  /** Closes every spool and removes the folder. */
  discard(): void {
    for (const s of this.open) s.close();
    this.open.clear();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}

export class Spool {
  private fd: number | undefined;
  private path: string | undefined;
  private parts: string[] = [];
  private size = 0;
  /** Nothing was written yet. */
  empty = true;

  constructor(private readonly pathOf: () => string) {}

  write(text: string): void {
    if (!text) return;
    this.empty = false;
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= HELD_CHARS) this.flush();
  }

  /** What was written, in pieces, from the start (the spool takes no more writes). */
  async *text(): AsyncGenerator<string> {
    if (this.fd === undefined) {
      // Never past the first flush: it is all still here.
      const all = this.parts.join('');
      this.parts = [];
      this.size = 0;
      if (all) yield all;
      return;
    }
    this.flush();
    this.close();
    yield* createReadStream(this.path!, { encoding: 'utf8', highWaterMark: HELD_CHARS * 2 }) as AsyncIterable<string>;
  }

  /** The lines written (each ended by "\n"), one at a time. */
  async *lines(): AsyncGenerator<string> {
    let rest = '';
    for await (const piece of this.text()) {
      const lines = (rest + piece).split('\n');
      rest = lines.pop()!;
      yield* lines;
    }
    if (rest) yield rest;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private flush(): void {
    if (this.size === 0) return;
    this.path ??= this.pathOf();
    this.fd ??= openSync(this.path, 'wx', 0o600);
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
}
