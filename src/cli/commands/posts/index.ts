// `socialpub posts`: create drafts, schedule them (one or a file of thousands), list by status.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { defineCreate } from './create.js';
import { defineSchedule } from './schedule.js';
import { defineList } from './list.js';
import { defineCalendar } from './calendar.js';
import { defineCheck } from './check.js';
import { definePreview } from './preview.js';
import { MANAGE_VERBS } from './manage.js';
import { defineVerbs } from '../named.js';

export function definePosts(program: CommandUnknownOpts, ctx: Context, argv?: readonly string[]): void {
  const posts = program
    .command('posts')
    .summary('draft, schedule, view, edit, delete and list posts')
    .description('Create drafts with a payload per platform, schedule them (one at a time or from a file), and list posts by status.')
    .addHelpText(
      'after',
      `
Examples:
  socialpub posts create --platform twitter-x --text "Hello" -q
  socialpub posts schedule --platform bluesky --text "Soon" --at +2h
  socialpub posts list --status scheduled --limit 50
  socialpub posts check --platform twitter-x,instagram --text "Hi" --media a.mp4`,
    );
  defineVerbs(posts, ctx, argv, { create: defineCreate, schedule: defineSchedule, list: defineList, calendar: defineCalendar, check: defineCheck, preview: definePreview, ...MANAGE_VERBS });
}
