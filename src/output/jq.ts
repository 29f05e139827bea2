// --jq: the real jq (jq 1.7, compiled to WebAssembly by the jq-web package), loaded only when
// --jq is used. A pure-JavaScript look-alike was faster per row but is not jq (missing builtins,
// different Unicode and number handling); see the commit that added jq-web for the figures.
//
// Each jq run starts jq's main() (about 1 ms: it compiles the builtins), so rows are given to jq
// in batches: jq runs the program once per input value, exactly as `jq` does over NDJSON.
// First: it throws when jq.wasm is missing, before jq-web loads (see jq-wasm.ts).
import './jq-wasm.js';
import jqReady from 'jq-web';
import { runsPerRow } from './jq-pieces.js';

/** A --jq expression that cannot be compiled (exit 2, before any request) or failed on a value. */
export class JqError extends Error {
  override readonly name = 'JqError';
  constructor(
    message: string,
    readonly kind: 'compile' | 'runtime',
    /** Output lines produced before a runtime error (to print before reporting it). */
    readonly lines: readonly string[] = [],
  ) {
    super(message);
  }
}

export interface JqProgram {
  readonly expression: string;
  /** `.[] | …`: over a list, the program may run on a piece of the rows at a time (jq-pieces.ts). */
  readonly perRow: boolean;
  /** The output lines for one value: strings raw, other values compact JSON. */
  run(value: unknown): string[];
  /** The output lines for each value in turn (one jq run; for NDJSON rows). */
  runEach(values: readonly unknown[]): string[];
}

export interface JqOptions {
  /** Where jq's own stderr goes (`debug`, `stderr`); default: this process's stderr. */
  onStderr?: (text: string) => void;
  /** --arg NAME VALUE: string values the program sees as $NAME. */
  args?: Readonly<Record<string, string>>;
  /** What the program sees as `env` and `$ENV` (the WebAssembly jq has no environment of its own). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Never handed to a filter: a filter's output or error could print them. */
const SECRET_ENV = new Set(['SOCIALPUB_API_KEY', 'SOCIALPUB_WEBHOOK_SECRET']);

/**
 * Bindings put before the program, on the same line so jq's line numbers stay the user's:
 * `$ENV` and `env` from the given environment (only when the program names them), each --arg as
 * `"value" as $NAME`.
 */
export function jqPrelude(expression: string, options: Pick<JqOptions, 'args' | 'env'>): string {
  let prelude = '';
  if (options.env && /\$ENV\b|\benv\b/.test(expression)) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.env)) if (v !== undefined && !SECRET_ENV.has(k)) env[k] = v;
    prelude += `${JSON.stringify(env)} as $ENV | def env: $ENV; `;
  }
  for (const [name, value] of Object.entries(options.args ?? {})) prelude += `${JSON.stringify(value)} as $${name} | `;
  return prelude;
}

type Jq = Awaited<typeof jqReady>;

/** Loads jq and compiles the expression; a bad expression throws a JqError of kind `compile`. */
export async function compileJq(expression: string, options: JqOptions = {}): Promise<JqProgram> {
  if (expression.trim() === '') throw new JqError('--jq: the expression is empty; give a jq filter such as .id or .[] | .status', 'compile');
  const given = expression;
  // Parenthesised, so a program ending in a comment or a pipe keeps its meaning after the prelude.
  const prelude = jqPrelude(given, options);
  if (prelude) expression = `${prelude}(${given}\n)`;
  const jq = await jqReady;
  const onStderr = options.onStderr ?? ((text: string) => process.stderr.write(text.endsWith('\n') ? text : text + '\n'));
  // With no input at all jq compiles the program and runs it zero times: a syntax check with
  // jq's own messages that cannot hang on an expensive expression.
  const check = call(jq, '', expression);
  if (check.error) throw new JqError(`--jq: ${check.error}; see the jq manual for the syntax`, 'compile');

  // jq-web's raw() returns stdout only when jq exits 0: on an error its exception carries the
  // exit code and stderr, and the outputs printed before the error are dropped. The same program
  // inside `try ... catch empty` stops at that same first error and exits 0, so a second run over
  // the one value gives exactly those outputs, and the debug/stderr messages that came with them.
  // (halt_error is not an error to `try`: after it, nothing is recovered.)
  const linesBeforeError = (input: string): string[] => {
    const r = call(jq, input, `try (${expression}\n) catch empty`);
    if (r.error) return [];
    if (r.stderr) onStderr(r.stderr);
    return r.lines;
  };
  const runOne = (value: unknown): string[] => {
    const input = toJson(value);
    const r = call(jq, input, expression);
    if (r.stderr) onStderr(r.stderr);
    if (r.error) throw new JqError(`--jq: ${r.error}`, 'runtime', linesBeforeError(input));
    return r.lines;
  };
  return {
    expression: given,
    perRow: runsPerRow(given),
    run: runOne,
    runEach(values) {
      if (values.length === 0) return [];
      if (values.length === 1) return runOne(values[0]);
      const r = call(jq, values.map(toJson).join('\n'), expression);
      if (!r.error) {
        if (r.stderr) onStderr(r.stderr);
        return r.lines;
      }
      // Which row failed, and what came before it: run them one by one.
      const lines: string[] = [];
      for (const v of values) {
        try {
          for (const line of runOne(v)) lines.push(line);
        } catch (inner) {
          if (inner instanceof JqError) throw new JqError(inner.message, 'runtime', lines.concat(inner.lines));
          throw inner;
        }
      }
      return lines;
    },
  };
}

function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

interface CallResult {
  lines: string[];
  /** jq's error message (without the `jq: error:` prefix), when it failed. */
  error?: string;
  /** Other stderr output (debug, stderr builtins). */
  stderr?: string;
}

function call(jq: Jq, input: string, expression: string): CallResult {
  // -r: strings raw; -c: everything else as compact JSON, one per line.
  const run = quietly(() => jq.raw(input, expression, ['-r', '-c']));
  let stdout: string | undefined;
  let stderr = run.warnings;
  if ('thrown' in run) {
    const e = run.thrown as { message?: string; stderr?: string };
    stderr += e.stderr ?? e.message ?? String(run.thrown);
  } else stdout = run.value;
  const lines = stdout === undefined ? [] : stdout.split('\n');
  const errorLines = stderr.split('\n').filter((l) => /^jq: (error|\d+ compile error)/.test(l));
  const other = stderr
    .split('\n')
    .filter((l) => l !== '' && !/^jq: /.test(l) && !/^Non-zero exit code/.test(l) && !errorLines.includes(l))
    .join('\n');
  const failed = 'thrown' in run || errorLines.length > 0;
  const result: CallResult = { lines };
  if (failed) result.error = describe(errorLines, stderr);
  // A compile error echoes the program text on the lines after the message: not "other" output.
  if (other && !failed) result.stderr = other;
  return result;
}

function describe(errorLines: string[], stderr: string): string {
  const first = errorLines.find((l) => l.startsWith('jq: error')) ?? stderr.split('\n').find((l) => l.trim() !== '') ?? 'jq failed';
  return first
    .replace(/^jq: error:?\s*/, '')
    .replace(/ \(Unix shell quoting issues\?\)/, '')
    .replace(/ at <top-level>, line (\d+):?$/, ' (line $1)')
    .replace(/^\(at (inputString|<unknown>)(:\d+)?\):\s*/, '');
}

/**
 * Runs `fn` with console.warn captured (jq-web reports jq's stderr there) and process.exitCode
 * kept (its runtime sets it), so neither leaks into the command's own output or exit status.
 */
function quietly<T>(fn: () => T): ({ value: T } | { thrown: unknown }) & { warnings: string } {
  const warn = console.warn;
  const exitCode = process.exitCode;
  let warnings = '';
  console.warn = (...args: unknown[]) => {
    // jq-web formats as console.warn('%cstderr%c: %c%s', style, style, style, text).
    const text = typeof args[0] === 'string' && args[0].startsWith('%c') ? String(args[args.length - 1]) : args.map(String).join(' ');
    warnings += text.endsWith('\n') ? text : text + '\n';
  };
  try {
    return { value: fn(), warnings };
  } catch (thrown) {
    return { thrown, warnings };
  } finally {
    console.warn = warn;
    process.exitCode = exitCode;
  }
}
