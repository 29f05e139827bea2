// Which API a service speaks, told at login by the cheapest reads that tell them apart, which also
// check the key: GET /v1/posts?limit=1 answers a list in socialpub's API; where that route is
// missing (405, or a 404 without this contract's error body), GET /api/v1/posts?limit=1 answering
// a list means SyncPostly's. A service that serves both (the local sandbox) is socialpub's: the
// first read settles it. A refused key or an outage is thrown as it came, for login to word.
import type { ApiClient } from '../../../client/types.js';
import { lacksRoute } from '../../../client/errors.js';
import { PATHS } from '../../../wire/protocol.js';
import { SP_PATHS } from '../../../wire/syncpostly/assumptions.js';
import type { Dialect } from '../../../wire/dialects.js';
import { UsageError } from '../../cli-error.js';

const PROBES: ReadonlyArray<{ api: Dialect; path: string }> = [
  { api: 'socialpub', path: PATHS.posts },
  { api: 'syncpostly', path: SP_PATHS.posts },
];

/** A list answer (`{ data: [...] }`): a catch-all page answering 200 to any path is no API. */
const isList = (body: unknown): boolean => typeof body === 'object' && body !== null && Array.isArray((body as { data?: unknown }).data);

export async function detectApi(client: ApiClient, debug: (line: string) => void): Promise<Dialect> {
  const missing: string[] = [];
  for (const probe of PROBES) {
    try {
      const res = await client.request<unknown>({ method: 'GET', path: probe.path, query: { limit: 1 } });
      if (isList(res.data)) {
        debug(`api detection: GET ${probe.path} answered a list: ${probe.api}`);
        return probe.api;
      }
      missing.push(`${probe.path} answered ${res.status} without a list`);
    } catch (err) {
      if (!lacksRoute(err)) throw err;
      missing.push(`${probe.path} answered ${(err as { status?: number }).status}`);
    }
    debug(`api detection: ${missing.at(-1)}`);
  }
  throw new UsageError(`${client.baseUrl} speaks neither socialpub's API nor SyncPostly's (${missing.join('; ')}); nothing was saved`, [
    'check --base-url: it is the service\'s root, e.g. https://api.example.com',
    'or say which API it speaks: socialpub auth login --api socialpub (or --api syncpostly, experimental)',
  ], 'UNKNOWN_API');
}
