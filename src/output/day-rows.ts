// The posts of `posts queue` and `posts calendar` as rows for a spreadsheet or a script (-o csv,
// TSV): the same leading columns in both, so a script reads either file the same way.
import type { Column } from './writers.js';

/** A post on a day, as `posts queue` and `posts calendar` give it to a spreadsheet or a script. */
export interface DayPostRow {
  id: string;
  /** UTC, as the service gave it. */
  scheduledAt: string;
  /** Local YYYY-MM-DD and HH:MM in the zone. */
  date: string;
  time: string;
  platforms: readonly string[];
}

/** The columns that place such a row in time (id, UTC, local date and time, platforms); each command adds its own after. */
export function dayPostColumns<R extends DayPostRow>(): Column<R>[] {
  return [
    { header: 'id', field: 'id', value: (r) => r.id },
    { header: 'scheduledAt', field: 'scheduledAt', value: (r) => r.scheduledAt },
    { header: 'date', field: 'date', value: (r) => r.date },
    { header: 'time', field: 'time', value: (r) => r.time },
    { header: 'platforms', field: 'platforms', value: (r) => r.platforms.join(',') },
  ];
}
