// The requests a bulk row makes: media uploads, then POST /v1/schedule with the row's key.
import { PATHS } from '../../wire/protocol.js';
import type { ScheduleBody } from '../../wire/schemas.js';
import { buildBody, localFiles } from '../body.js';
import type { MediaSource } from '../draft.js';
import type { MediaFacts } from '../media-facts.js';
import type { PlannedRequest } from '../planned-request.js';
import type { BulkRow } from './rows.js';

export function scheduleBody(row: BulkRow, facts: Map<MediaSource, MediaFacts>, urlOf: (path: string) => string): ScheduleBody {
  if (row.postId !== undefined) return { postId: row.postId, scheduledAt: row.at!.iso };
  return { ...buildBody(row.draft!, facts, urlOf), scheduledAt: row.at!.iso };
}

export function planRow(row: BulkRow, facts: Map<MediaSource, MediaFacts>, key: string): PlannedRequest[] {
  const requests: PlannedRequest[] = [];
  const files = row.draft ? localFiles(row.draft) : [];
  for (const f of files) {
    const ff = facts.get(f);
    const name = f.path!.split(/[\\/]/).pop()!;
    requests.push({ method: 'POST', path: PATHS.media, body: { name, mimeType: ff?.mimeType, sizeBytes: ff?.sizeBytes } });
    requests.push({ method: 'PUT', path: `<uploadUrl returned for ${name}>`, bytes: { file: f.source, sizeBytes: ff?.sizeBytes ?? 0, contentType: ff?.mimeType ?? '' } });
  }
  const body = scheduleBody(row, facts, (p) => `<url returned by POST ${PATHS.media} for ${p.split(/[\\/]/).pop()}>`);
  requests.push({ method: 'POST', path: PATHS.schedule, headers: { 'Idempotency-Key': key }, body });
  return requests;
}
