// --dry-run: the exact requests that would be sent and the validation result; nothing is sent.
import type { Context } from '../context.js';
import type { Issue } from './draft.js';

export interface PlannedRequest {
  method: 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** For a byte upload: what would go up instead of a JSON body. */
  bytes?: { file: string; sizeBytes: number; contentType: string };
  /** Bulk: which row of the file the request belongs to. */
  row?: number;
  line?: number;
}

export interface DryRunReport {
  valid: boolean;
  issues: Issue[];
  requests: PlannedRequest[];
  notes?: string[];
}

export function renderRequest(r: PlannedRequest): string {
  const lines = r.row !== undefined ? [`# row ${r.row} (line ${r.line})`, `${r.method} ${r.path}`] : [`${r.method} ${r.path}`];
  for (const [k, v] of Object.entries(r.headers ?? {})) lines.push(`${k}: ${v}`);
  if (r.bytes) lines.push(`(${r.bytes.sizeBytes} bytes of ${r.bytes.file}, Content-Type: ${r.bytes.contentType})`);
  if (r.body !== undefined) lines.push(JSON.stringify(r.body, null, 2));
  return lines.join('\n');
}

export async function printDryRun(ctx: Context, report: DryRunReport): Promise<void> {
  const out = ctx.output();
  if (out.format === 'json' || out.format === 'ndjson') {
    await out.object({ dryRun: true, ...report }, () => '');
    return;
  }
  const head = report.valid ? 'validation: ok' : `validation: ${report.issues.length} problem(s)`;
  const parts = [`# dry run: nothing was sent`, `# ${head}`, ...(report.notes ?? []).map((n) => `# ${n}`)];
  for (const i of report.issues) parts.push(`#   - ${i.message}${i.fix ? ` (fix: ${i.fix})` : ''}`);
  const text = [parts.join('\n'), ...report.requests.map(renderRequest)].join('\n\n');
  await out.data(text);
}

/**
 * Runs the validation; under --dry-run with JSON output a failure is also printed as a report on
 * stdout (valid: false, issues) before the error goes on to exit 2.
 */
export async function reportInvalidDryRun<T>(ctx: Context, dryRun: boolean | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const issues = (e as { issues?: Issue[] }).issues;
    if (dryRun && issues && (ctx.output().format === 'json' || ctx.output().format === 'ndjson')) {
      await printDryRun(ctx, { valid: false, issues, requests: [] });
    }
    throw e;
  }
}
