// `results get`, run: one post result in full (the detail view, or the row as JSON).
import type { Context } from '../../context.js';
import { keyWorkspace } from '../../../config/resolve.js';
import { CliError, EXIT, UsageError } from '../../cli-error.js';
import { ApiError, NotFoundError } from '../../../client/errors.js';
import { renderResult } from '../../../output/result-detail.js';
import { renderFieldRecord } from '../../../output/fields.js';
import { checkResultFields, resultView } from '../../../output/result-columns.js';
import { openInBrowser } from '../../../output/browser.js';
import { visible, visibleLine } from '../../../output/terminal-safe.js';
import type { PostResult } from '../../../wire/schemas.js';
import type { GetFlags } from './get.js';
import { looksLikePostId } from '../../../wire/protocol.js';
import { userZone } from '../../../posts/zone.js';
import { shellWord } from '../../shell-word.js';

export async function runGet(ctx: Context, id: string, flags: GetFlags = {}): Promise<number> {
  const trimmed = id.trim();
  if (!trimmed) throw new UsageError('results get: give a result id', ['find ids with `socialpub results list`']);
  // A post id pasted where a result id belongs: say where its results are instead of "not found".
  if (looksLikePostId(trimmed)) {
    // Each command last, after a colon: a narrow terminal moves it whole to a line of its own.
    throw new UsageError(`results get: "${trimmed}" is a post id, not a result id`, [
      `each platform's outcome: socialpub posts view ${trimmed}`,
      `its results, with their ids: socialpub results list --post ${trimmed}`,
    ]);
  }
  const fields = ctx.globals.fields;
  checkResultFields(fields, resultView(() => ctx.clock.now()).columns);
  const client = await ctx.client();
  let row;
  try {
    row = (await client.results.get(trimmed)).data;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'not-found') {
      // The service answers 404 for another workspace's id too: say where we looked, nothing more.
      const profile = await ctx.profile();
      throw new NotFoundError(`no result ${trimmed} in ${keyWorkspace(profile)}`, {
        ...(err.status !== undefined ? { status: err.status } : {}),
        ...(err.code !== undefined ? { code: err.code } : {}),
        ...(err.requestId !== undefined ? { requestId: err.requestId } : {}),
        body: err.body,
        cause: err,
      });
    }
    throw err;
  }
  const out = ctx.output();
  if (flags.web) return openLivePost(ctx, row);
  // --fields shapes the human view too: only the fields asked for, in that order.
  await out.object(row, (shown) => (fields ? renderFieldRecord(shown, fields, out.colors) : renderResult(shown, out.colors, ctx.clock.now(), userZone(ctx.env, undefined))));
  if (!out.structured) out.info(out.colors.dim(`all results of this post: socialpub results list --post ${visibleLine(shellWord(String(row.post_id)))}`));
  return 0;
}

/** --web: the live post in the browser, or its URL printed when there is no browser to open. */
async function openLivePost(ctx: Context, row: PostResult): Promise<number> {
  const url = row.platform_data?.url;
  if (!row.success || typeof url !== 'string' || !url) {
    throw new CliError(`${row.id} has no live post to open: ${row.success ? 'the platform gave no URL' : 'publishing failed'}`, {
      exitCode: EXIT.usage,
      hints: [`see why with \`socialpub results get ${shellWord(row.id)}\``],
    });
  }
  const out = ctx.output();
  if (await openInBrowser({ env: ctx.env, url })) out.info(`opened ${url}`);
  // The URL came from the server: its control characters are shown, not obeyed.
  else await out.data(visible(url));
  return 0;
}
