// Reads --file / --from-file: a path, or "-" for standard input.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../cli-error.js';

export interface Source {
  text: string;
  /** For messages: the path as given, or "stdin". */
  label: string;
  /** Folder that relative media paths inside the file start from. */
  baseDir: string;
  /** Absolute path, or undefined for stdin. */
  path: string | undefined;
}

// node:fs/promises (and the readline it loads) when a read needs it: a bulk check of a regular
// file never does, and loading them was ~3 ms of its start.
const fsPromises = () => process.getBuiltinModule('node:fs/promises');

async function readAll(stream: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks);
}

/**
 * The file's text. UTF-8 (a leading BOM dropped), or UTF-16 with its BOM (a spreadsheet's
 * "Unicode text"); anything else, such as a CSV saved as Windows-1252, is refused with its first
 * bad line: decoded anyway, every accented letter would be posted as U+FFFD.
 */
function decode(bytes: Buffer, what: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8(what, bytes, 1);
  }
}

/**
 * The line (counted from `firstLine`, where `bytes` start) of the first byte that is not UTF-8.
 * A piece after the first may start with the end of a character begun in the piece before.
 */
function notUtf8(what: string, bytes: Uint8Array, firstLine: number, afterPiece = false): UsageError {
  let start = 0;
  while (afterPiece && start < 3 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  const text = new TextDecoder('utf-8').decode(bytes.subarray(start));
  const bad = text.indexOf('\uFFFD');
  const line = firstLine + (bad === -1 ? 0 : text.slice(0, bad).split('\n').length - 1);
  return new UsageError(`${what}: line ${line} is not UTF-8 text (saved in another encoding, such as Windows-1252?)`, [
    'save it as UTF-8 ("CSV UTF-8" in a spreadsheet), or convert it: iconv -f WINDOWS-1252 -t UTF-8 in.csv > out.csv',
  ]);
}

export async function readSource(ctx: Context, arg: string, flag: string, cwd = process.cwd()): Promise<Source> {
  if (arg === '-') {
    if (ctx.io.stdin.isTTY) throw new UsageError(`${flag} -: standard input is a terminal`, [`pipe the file in (\`cat post.json | socialpub … ${flag} -\`) or give a path`]);
    return { text: decode(await readAll(ctx.io.stdin), `${flag} -`), label: 'stdin', baseDir: cwd, path: undefined };
  }
  const path = resolve(cwd, arg);
  let bytes: Buffer;
  try {
    const fifo = fifoPieces(path, ctx.signal);
    bytes = fifo ? await readAll(fifo) : await fsPromises().readFile(path);
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw unreadable(e, flag, arg);
  }
  return { text: decode(bytes, `${flag} ${arg}`), label: arg, baseDir: dirname(path), path };
}

function unreadable(e: unknown, flag: string, arg: string): UsageError {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
  return new UsageError(`${flag} ${arg}: ${why}`, ['check the path']);
}

export interface StreamedSource extends Omit<Source, 'text'> {
  /** The text a piece at a time, decoded as readSource decodes it (a bad byte: the UsageError naming its line). */
  pieces: AsyncIterable<string>;
}

/** Pieces read at once: small enough that a piece's rows, made at once, are few (a thousand short rows). */
const PIECE_BYTES = 16 * 1024;

/**
 * readSource a piece at a time, for a file too long to hold (a bulk file posts check judges row
 * by row). The file is opened here, so a missing one is told before anything is read.
 */
export async function streamSource(ctx: Context, arg: string, flag: string, cwd = process.cwd()): Promise<StreamedSource> {
  const what = `${flag} ${arg}`;
  if (arg === '-') {
    if (ctx.io.stdin.isTTY) throw new UsageError(`${flag} -: standard input is a terminal`, [`pipe the file in (\`cat post.json | socialpub … ${flag} -\`) or give a path`]);
    return { pieces: decodePieces(ctx.io.stdin as AsyncIterable<Buffer | string>, what), label: 'stdin', baseDir: cwd, path: undefined };
  }
  const path = resolve(cwd, arg);
  let pieces: AsyncIterable<Buffer>;
  try {
    pieces = regularFilePieces(path) ?? fifoPieces(path, ctx.signal) ?? handlePieces(await openOther(path));
  } catch (e) {
    throw unreadable(e, flag, arg);
  }
  return { pieces: decodePieces(pieces, what), label: arg, baseDir: dirname(path), path };
}

/**
 * A regular file's pieces, read synchronously: from the page cache a piece takes microseconds,
 * and the first read through promises started the thread pool (~10 ms of a 1,000-row check).
 * Undefined for anything else (a pipe, a device), which could block the process while it waits.
 */
function regularFilePieces(path: string): AsyncIterable<Buffer> | undefined {
  const s = statSync(path);
  if (s.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
  if (!s.isFile()) return undefined;
  // Non-blocking: should the name have become a pipe meanwhile, opening it does not wait for a writer.
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    return undefined;
  }
  return fdPieces(fd);
}

/**
 * A FIFO's pieces, read as a stream of the event loop; undefined for anything else. Opened without
 * waiting for a writer: a blocking open holds a thread of the pool that no signal takes back (the
 * first Ctrl-C was lost, and even exiting waited for it). Linux reports no hang-up on a FIFO before
 * its first writer, so the stream waits for one while the process stays free, and `signal` (Ctrl-C)
 * ends the wait. Elsewhere that is not known, and the FIFO is opened as anything else is.
 */
function fifoPieces(path: string, signal: AbortSignal): AsyncIterable<Buffer> | undefined {
  if (process.platform !== 'linux' || !statSync(path).isFIFO()) return undefined;
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  if (!fstatSync(fd).isFIFO()) {
    closeSync(fd);
    return undefined;
  }
  const { Socket } = process.getBuiltinModule('node:net');
  return streamPieces(new Socket({ fd, readable: true, writable: false, signal }));
}

/**
 * A stream's chunks as pieces of at most PIECE_BYTES, a turn of the event loop after each and
 * after the end, as fdPieces reads: what the stream holds at once is judged without one, and a
 * Ctrl-C that came with the end would be heard only once the whole run was over.
 */
async function* streamPieces(stream: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of stream) {
    for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
      yield chunk.length <= PIECE_BYTES ? chunk : chunk.subarray(at, at + PIECE_BYTES);
      await turn();
    }
  }
  await turn();
}

/** A turn of the event loop: signals that came meanwhile are heard. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function openOther(path: string): Promise<FileHandle> {
  const handle = await fsPromises().open(path, 'r');
  if ((await handle.stat()).isDirectory()) {
    await handle.close();
    throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
  }
  return handle;
}

async function* fdPieces(fd: number): AsyncGenerator<Buffer> {
  try {
    while (true) {
      const buffer = Buffer.allocUnsafe(PIECE_BYTES);
      const bytesRead = readSync(fd, buffer, 0, PIECE_BYTES, null);
      if (bytesRead === 0) return;
      yield bytesRead === PIECE_BYTES ? buffer : buffer.subarray(0, bytesRead);
      // A turn of the event loop between pieces, as a read through promises gave: Ctrl-C is heard here.
      await turn();
    }
  } finally {
    closeSync(fd);
  }
}

async function* handlePieces(handle: FileHandle): AsyncGenerator<Buffer> {
  try {
    while (true) {
      const { bytesRead, buffer } = await handle.read(Buffer.allocUnsafe(PIECE_BYTES), 0, PIECE_BYTES, null);
      if (bytesRead === 0) return;
      yield bytesRead === PIECE_BYTES ? buffer : buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** Bytes to text as decode() reads them, the encoding told by the first piece's BOM. */
async function* decodePieces(chunks: AsyncIterable<Buffer | string>, what: string): AsyncGenerator<string> {
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  let line = 1;
  let pieces = 0;
  for await (const c of chunks) {
    const bytes = typeof c === 'string' ? Buffer.from(c) : c;
    if (!decoder) {
      // A BOM cut in two by the first piece is not worth a wait: pieces are 64 KiB.
      const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
      decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8' });
    }
    let text: string;
    try {
      text = decoder.decode(bytes, { stream: true });
    } catch {
      throw notUtf8(what, bytes, line, pieces > 0);
    }
    pieces++;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) line++;
    yield text;
  }
  try {
    const tail = decoder?.decode() ?? '';
    if (tail) yield tail;
  } catch {
    throw notUtf8(what, Buffer.alloc(0), line);
  }
}
