// The write-ahead log's lines on disk (FILE.wal). Each line is the CRC-32 of its JSON (8 hex
// digits), a space, and the JSON: the first line is the header naming the log's generation,
// each further line one batch of changes. A crash mid-write leaves a torn last line (no
// newline): nobody was told about its changes, so it is dropped with a notice. Anything else
// that does not check out is damage that a guess could turn into lost writes: start-up stops
// with the file, the line and what to do, and nothing on disk is changed.
//
// Logs written before checksums (version 1: plain JSON lines, a header without a version) are
// still read, with every complete line required to parse; start-up compacts them at once, and
// the new log is written in this format.
import { crc32 } from 'node:zlib';
import { readPrivateFile, StateFileError } from '../persistence.js';
import type { Change } from './replay.js';

export const LOG_FORMAT = 'socialpub-sandbox-log';
export const LOG_VERSION = 2;

export const logFileOf = (dataFile: string) => `${dataFile}.wal`;

const checksum = (json: string) => crc32(json).toString(16).padStart(8, '0');

/** One line of the log, newline included. */
export const encodeLine = (json: string) => `${checksum(json)} ${json}\n`;

export const headerLine = (generation: number) => encodeLine(JSON.stringify({ format: LOG_FORMAT, version: LOG_VERSION, generation }));

export interface ReadLog {
  /** The changes of the log, oldest first (none when the log belongs to an older snapshot). */
  changes: Change[];
  /** What was dropped as the remains of a crash, for the person starting the sandbox. */
  notices: string[];
}

/** The JSON of a checksummed line, or undefined when the line does not check out. */
function verified(line: string): unknown {
  const m = /^([0-9a-f]{8}) (.*)$/s.exec(line);
  if (!m || checksum(m[2]!) !== m[1]) return undefined;
  return parseJson(m[2]!);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function readLog(file: string, generation: number): ReadLog {
  const text = readPrivateFile(file, 'the sandbox log');
  if (!text) return { changes: [], notices: [] };
  const end = text.lastIndexOf('\n');
  const lines = end < 0 ? [] : text.slice(0, end).split('\n');
  const torn = text.slice(end + 1);
  const notices: string[] = [];
  const damaged = (n: number, why: string): StateFileError => {
    const kept = n - 1;
    const fix =
      n === 1
        ? `restore it from a backup, or start from the snapshot alone, losing every change in the log (${lines.length - 1} batches, acknowledged writes among them): mv ${q(file)} ${q(`${file}.damaged`)}`
        : `restore it from a backup, or keep the ${kept} intact lines and lose the changes from line ${n} on (${lines.length - kept} batches, acknowledged writes among them): head -n ${kept} ${q(file)} > ${q(`${file}.kept`)} && mv ${q(`${file}.kept`)} ${q(file)}`;
    return new StateFileError(`the sandbox log ${file} is damaged at line ${n} (${why}); the sandbox changed nothing. To go on, ${fix}`);
  };

  if (lines.length === 0) {
    // Even the header was cut short: the log was being started, nothing in it was acknowledged.
    notices.push(`the sandbox log ${file} ended in its first line, cut short by a crash; nothing in it was acknowledged, so nothing is lost`);
    return { changes: [], notices };
  }
  const legacy = lines[0]!.startsWith('{');
  const decode = legacy ? parseJson : verified;
  const header = decode(lines[0]!) as { format?: unknown; version?: unknown; generation?: unknown } | undefined;
  const headerOk = header?.format === LOG_FORMAT && typeof header.generation === 'number' && header.version === (legacy ? undefined : LOG_VERSION);
  if (!headerOk) throw damaged(1, legacy ? 'its header is not a sandbox log header' : 'its header does not match its checksum');
  const logGeneration = header.generation as number;
  // An older log is already contained in the snapshot. A newer one goes with a snapshot that
  // has since been replaced by an older copy: skipping it would drop acknowledged writes.
  if (logGeneration < generation) return { changes: [], notices };
  if (logGeneration > generation) {
    throw new StateFileError(
      `the sandbox log ${file} goes with a newer snapshot (generation ${logGeneration}) than the one beside it (generation ${generation}), which looks like an older copy; the sandbox changed nothing. Put back the snapshot that goes with this log, or move the log away to start from the older snapshot alone (the log's changes are then lost): mv ${q(file)} ${q(`${file}.newer`)}`,
    );
  }

  const changes: Change[] = [];
  for (let i = 1; i < lines.length; i++) {
    const batch = decode(lines[i]!);
    if (!Array.isArray(batch)) throw damaged(i + 1, legacy ? 'not a batch of changes' : 'its checksum does not match');
    // One by one: a spread of a batch as large as a bulk insert would overflow the call stack.
    for (const change of batch as Change[]) changes.push(change);
  }
  if (torn) {
    // Whole but for its newline: written out, so keeping it loses nothing and invents nothing.
    const batch = legacy ? undefined : verified(torn);
    if (Array.isArray(batch)) for (const change of batch as Change[]) changes.push(change);
    else notices.push(`dropped the last line of the sandbox log ${file} (line ${lines.length + 1}, ${Buffer.byteLength(torn)} bytes): a write cut short by a crash, never acknowledged`);
  }
  return { changes, notices };
}
