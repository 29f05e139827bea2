// Invalid input, told before anything is sent: the same shape as the service's 422 issues (a
// field path and a message), plus the fix. The posts and results domains raise it, the CLI maps
// it to exit 2 and the MCP server to an `invalid_input` tool error; it lives here, under all of
// them, because `wire` is the one room every one of them may import.

export interface InputIssue {
  /** Where the problem is: a flag (`--at`), a body path (`payloads.bluesky.text`) or a file line. */
  field: string;
  message: string;
  /** How to fix it. */
  fix?: string;
}

export interface InvalidInputOptions {
  /** What holds the problems, for the summary ("the post", "posts.csv"). */
  what?: string;
  /** Replaces "N problems in <what>" when there are several. */
  headline?: string;
  /** Hints after the problems' own fixes. */
  hints?: string[];
  /**
   * Problems past this many are left out of the lines a person reads (`shownMessage`), with one
   * line saying how many more and `listAll`, the command that lists them; the message keeps all.
   */
  showAtMost?: number;
  listAll?: string;
}

export class InvalidInputError extends Error {
  readonly code = 'INVALID_INPUT';
  readonly issues: readonly InputIssue[];
  readonly hints: string[];
  /** The message as a person reads it: every problem, or the first `showAtMost` and how many more. */
  readonly shownMessage: string;
  constructor(issues: readonly InputIssue[], options: InvalidInputOptions = {}) {
    const summary = summarizeIssues(issues, options);
    super(summary.message);
    this.name = 'InvalidInputError';
    this.issues = issues;
    this.hints = [...summary.hints, ...(options.hints ?? [])];
    const cap = options.showAtMost;
    this.shownMessage = cap !== undefined && issues.length > cap ? cutSummary(issues, cap, options) : summary.message;
  }
}

function cutSummary(issues: readonly InputIssue[], cap: number, options: InvalidInputOptions): string {
  const more = issues.length - cap;
  const list = options.listAll ? `: \`${options.listAll}\` lists them all` : '';
  return `${summarizeIssues(issues.slice(0, cap), { ...options, headline: options.headline ?? `${issues.length} problems in ${options.what ?? 'the post'}` }).message}\n  … and ${more.toLocaleString('en-US')} more problem${more === 1 ? '' : 's'}${list}`;
}

/** The one summary of a list of problems: the problem itself when alone, else a list. */
export function summarizeIssues(issues: readonly InputIssue[], options: InvalidInputOptions = {}): { message: string; hints: string[] } {
  if (issues.length === 1 && !options.headline) {
    const i = issues[0]!;
    return { message: i.message, hints: i.fix ? [i.fix] : [] };
  }
  const lines = issues.map((i) => `  - ${i.message}${i.fix ? `\n      fix: ${i.fix}` : ''}`);
  const headline = options.headline ?? `${issues.length} problems in ${options.what ?? 'the post'}`;
  return { message: `${headline}; nothing was sent:\n${lines.join('\n')}`, hints: [] };
}

/** One problem with one field: the common case, with the field and the fix at hand. */
export class FieldInputError extends InvalidInputError {
  readonly field: string;
  readonly hint: string | undefined;
  constructor(field: string, message: string, hint?: string) {
    super([{ field, message, ...(hint ? { fix: hint } : {}) }]);
    this.field = field;
    this.hint = hint;
  }
}

/** An id that names nothing the key can see (exit 4, as a 404 would be). */
export class UnknownIdError extends Error {
  readonly code = 'NOT_FOUND';
  readonly hints: string[];
  constructor(message: string, hints: string[] = []) {
    super(message);
    this.name = 'UnknownIdError';
    this.hints = hints;
  }
}
