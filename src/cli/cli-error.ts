// Errors the CLI raises itself (bad flags, missing values, local validation). They carry their
// exit code and hints; the field they name is part of the message.
import { EXIT, type ExitCode } from './exit-codes.js';

export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly hints: string[];
  readonly code: string | undefined;
  /** Set when the error restates an API answer (e.g. a refused key at login), for the report. */
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  constructor(message: string, options: { exitCode?: ExitCode; hints?: string[]; code?: string; status?: number; requestId?: string } = {}) {
    super(message);
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT.error;
    this.hints = options.hints ?? [];
    this.code = options.code;
    this.status = options.status;
    this.requestId = options.requestId;
  }
}

/** Invalid input caught before any request: exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hints: string[] = [], code = 'USAGE') {
    super(message, { exitCode: EXIT.usage, hints, code });
    this.name = 'UsageError';
  }
}
