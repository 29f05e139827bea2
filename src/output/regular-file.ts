// Whether a stream writes to a regular file (stdout redirected with >), which no CI runner reads
// as its log, rather than to a pipe or a terminal.
import { fstatSync } from 'node:fs';

export function isRegularFile(stream: object): boolean {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return false;
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}
