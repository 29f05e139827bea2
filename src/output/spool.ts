// Text held back until the end: a report whose first lines depend on every row (a bulk check's
// `accepted`, its failures before its passes) keeps what must wait encoded in memory while it is
// small, then in temporary files, so 20,000 judged rows take the memory of a few. A file is made
// new (never through a link), 0600 (the text is the user's posts), and unlinked at once where the
// system allows it: read back through its descriptor, it leaves nothing behind, even after a crash.
import { closeSync, createReadStream, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Held in memory up to this many bytes (across a folder's spools), encoded: a report of a few
 * thousand rows never touches the disk, whose writing and reading back cost a bulk check of 1,000
 * rows a tenth of its time. Past it, every spool goes to its file. Bytes, not strings: strings kept
 * to the end are copied by every young-generation collection, and grow the heap.
 */
const MEMORY_BYTES = 2 * 1024 * 1024;

/**
 * Text gathered, then encoded (and written, once on disk) this many characters at a time: each
 * piece stays under the size V8 gives a heap object of its own.
 */
const HELD_CHARS = 8 * 1024;

/** The spools of one report: what they hold in memory together is bounded. */
export class Spools {
  private readonly open = new Set<Spool>();
  /** Bytes held in memory by all the spools; past MEMORY_BYTES they go to disk. */
  held = 0;

  spool(): Spool {
    const spool = new Spool(this);
    this.open.add(spool);
    return spool;
  }

  /** Every spool to its file, from now on. */
  toDisk(): void {
    for (const s of this.open) s.flush();
  }

  /** Closes (and removes) every spool's file. */
  discard(): void {
    for (const s of this.open) s.close();
    this.open.clear();
  }
}

export class Spool {
  private fd: number | undefined;
  /** The file's name while it has one (a system that cannot unlink an open file). */
  private path: string | undefined;
  /** Text not yet encoded. */
  private pending: string[] = [];
  private pendingChars = 0;
  /** Encoded pieces not yet on disk. */
  private held: Buffer[] = [];
  /** Nothing was written yet. */
  empty = true;

  constructor(private readonly spools: Spools) {}

  write(text: string): void {
    if (!text) return;
    this.empty = false;
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= HELD_CHARS) this.encode();
  }

  /** Text already encoded in UTF-8, after what was written before it. */
  writeBytes(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.encode();
    this.empty = false;
    this.keep(bytes);
  }

  /** What was written, in pieces, from the start (the spool takes no more writes). */
  async *text(): AsyncGenerator<string> {
    // A held piece is a whole text.
    for await (const piece of this.pieces()) yield typeof piece === 'string' ? piece : piece.toString('utf8');
  }

  /**
   * What was written, in pieces, from the start (the spool takes no more writes): the pieces
   * still held as the bytes they are (a stream that takes bytes needs no decoding and encoding
   * again), those on disk read back as text. Read back as bytes, each piece read is dropped
   * outside the heap, where it waits for a collection the little work left does not bring: a
   * 20,000-row report peaked 16 MB higher so.
   */
  async *pieces(): AsyncGenerator<string | Buffer> {
    this.encode();
    if (this.fd === undefined) {
      // Never written to its file: every piece is still here.
      const held = this.held;
      this.held = [];
      yield* held;
      return;
    }
    this.flush();
    // Read from the start, through the descriptor (the file may have no name any more).
    yield* createReadStream('', { fd: this.fd, start: 0, autoClose: false, encoding: 'utf8', highWaterMark: HELD_CHARS * 2 }) as AsyncIterable<string>;
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
    if (this.path !== undefined) rmSync(this.path, { force: true });
    this.path = undefined;
    this.held = [];
    this.pending = [];
  }

  /** The text gathered, encoded: kept, or written when the spool is on disk. */
  private encode(): void {
    if (this.pendingChars === 0) return;
    // Text comes in short pieces (rows, lines; a list's long JSON pieces come encoded: writeBytes).
    const bytes = Buffer.from(this.pending.length === 1 ? this.pending[0]! : this.pending.join(''));
    this.pending = [];
    this.pendingChars = 0;
    this.keep(bytes);
  }

  /** Encoded bytes kept, or written when the spool is on disk. */
  private keep(bytes: Buffer): void {
    this.held.push(bytes);
    if (this.fd !== undefined) this.flush();
    else if ((this.spools.held += bytes.length) > MEMORY_BYTES) this.spools.toDisk();
  }

  /** What is held, to the file (which is made now if need be). */
  flush(): void {
    if (this.held.length === 0) return;
    if (this.fd === undefined) {
      const path = join(tmpdir(), `socialpub-report-${process.getBuiltinModule('node:crypto').randomUUID()}.txt`);
      this.fd = openSync(path, 'wx+', 0o600);
      try {
        unlinkSync(path);
      } catch {
        // Windows keeps an open file's name: it is removed by close().
        this.path = path;
      }
    }
    for (const piece of this.held) writeSync(this.fd, piece);
    this.held = [];
  }
}
