// Under GitHub Actions, $GITHUB_STEP_SUMMARY names a file whose Markdown the job's summary page
// shows: `results wait` and bulk runs append what they found there. Service text goes into table
// cells on one line, with Markdown's own characters escaped, so it is shown and never read as markup.
import { appendFileSync } from 'node:fs';
import { visibleLine } from './terminal-safe.js';

/** Appends the Markdown to $GITHUB_STEP_SUMMARY when it is set; a summary that cannot be written is not worth failing the job. */
export function appendStepSummary(env: Readonly<Record<string, string | undefined>>, markdown: string): boolean {
  const path = env.GITHUB_STEP_SUMMARY;
  if (!path) return false;
  try {
    appendFileSync(path, `${markdown.trimEnd()}\n\n`);
    return true;
  } catch {
    // Deliberately quiet: the summary page is a courtesy, the exit code and the log are the record.
    return false;
  }
}

/** Text for one Markdown table cell: one line, nothing that Markdown or HTML would act on. */
export function markdownCell(text: string): string {
  return visibleLine(text).replace(/[\\`*[\]<>|#!~]/g, (c) => `\\${c}`);
}

/** A Markdown table; every cell is escaped. */
export function markdownTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.map(markdownCell).join(' | ')} |`;
  return [line(headers), `|${headers.map(() => ' --- ').join('|')}|`, ...rows.map(line)].join('\n');
}
