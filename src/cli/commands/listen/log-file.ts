// The --log file: appended to, one flushed write per event. It holds every event's payload, so
// like everything else the tool writes it is created 0600 (owner only). A file that already
// exists keeps the mode its owner gave it, but a log others can read is pointed out.
import { constants, fstatSync, openSync } from 'node:fs';
import { CliError, EXIT } from '../../cli-error.js';

export const LOG_FILE_MODE = 0o600;

/** Opens FILE for appending (created 0600) and returns its descriptor. */
export function openLog(file: string, warn: (line: string) => void): number {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, LOG_FILE_MODE);
  } catch (err) {
    throw new CliError(`cannot open --log file ${file}: ${(err as Error).message}`, { exitCode: EXIT.usage, code: 'LOG_FILE' });
  }
  const mode = fstatSync(fd).mode & 0o777;
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    warn(`--log file ${file} can be read by other users (mode ${mode.toString(8).padStart(4, '0')}); it holds every event: chmod 600 ${file}`);
  }
  return fd;
}
