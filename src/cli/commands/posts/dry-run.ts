// --dry-run: the exact requests that would be sent and the validation result; nothing is sent.
import type { Context } from '../../context.js';
import type { Issue } from '../../../posts/draft.js';
import type { PlannedRequest } from '../../../posts/planned-request.js';

export type { PlannedRequest };
import { InvalidInputError } from '../../../wire/invalid-input.js';

export interface DryRunReport {
  valid: boolean;
  issues: Issue[];
  requests: PlannedRequest[];
  notes?: string[];
}

/** What --fields may name in a dry-run report: the fields of the object --json prints. */
export const DRY_RUN_FIELDS = ['dryRun', 'valid', 'issues', 'requests', 'notes'];

export function renderRequest(r: PlannedRequest): string {
  const lines = r.row !== undefined ? [`# row ${r.row} (line ${r.line})`, `${r.method} ${r.path}`] : [`${r.method} ${r.path}`];
  for (const [k, v] of Object.entries(r.headers ?? {})) lines.push(`${k}: ${v}`);
  if (r.bytes) lines.push(`(${r.bytes.sizeBytes} bytes of ${r.bytes.file}, Content-Type: ${r.bytes.contentType})`);
  if (r.body !== undefined) lines.push(JSON.stringify(r.body, null, 2));
  return lines.join('\n');
}

export async function printDryRun(ctx: Context, report: DryRunReport): Promise<void> {
  // The plan is written in socialpub's own requests; a profile on SyncPostly's API says so rather
  // than pass them off as what would be sent.
  if (report.requests.length && (await ctx.profile()).api === 'syncpostly') report = { ...report, notes: [...(report.notes ?? []), SP_DRY_RUN_NOTE] };
  // With --fields, the report's own fields (as a record in text), not the post's.
  await ctx.output().object({ dryRun: true, ...report }, () => humanReport(report), { fields: DRY_RUN_FIELDS });
}

export const SP_DRY_RUN_NOTE =
  "the requests below are in socialpub's own API: this profile speaks SyncPostly's (experimental), which gets them translated (/api/v1/posts with caption, social_accounts and scheduled_at; no Idempotency-Key); --debug on a real run shows what goes out";

function humanReport(report: DryRunReport): string {
  const head = report.valid ? 'validation: ok' : `validation: ${report.issues.length} problem(s)`;
  const parts = [`# dry run: nothing was sent`, `# ${head}`, ...(report.notes ?? []).map((n) => `# ${n}`)];
  for (const i of report.issues) parts.push(`#   - ${i.message}${i.fix ? ` (fix: ${i.fix})` : ''}`);
  return [parts.join('\n'), ...report.requests.map(renderRequest)].join('\n\n');
}

/** Under --dry-run with JSON output, invalid input is also a report on stdout (valid: false). */
export async function printInvalidDryRun(ctx: Context, error: InvalidInputError): Promise<void> {
  if (ctx.output().structured) await printDryRun(ctx, { valid: false, issues: [...error.issues], requests: [] });
}

/**
 * Runs the validation; under --dry-run with JSON output a failure is also printed as a report on
 * stdout (valid: false, issues) before the error goes on to exit 2.
 */
export async function reportInvalidDryRun<T>(ctx: Context, dryRun: boolean | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (dryRun && e instanceof InvalidInputError) await printInvalidDryRun(ctx, e);
    throw e;
  }
}
