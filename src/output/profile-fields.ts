// What `auth status` and `profile show` print: the fields --fields may name (here, not beside
// the wire schemas: these commands load no zod), and the two aligned columns people read.
/** `auth status`'s report; `error` only when the key is refused. */
export const AUTH_STATUS_FIELDS: readonly string[] = ['profile', 'profileSource', 'baseUrl', 'baseUrlSource', 'api', 'apiSource', 'keySource', 'key', 'keyStoredIn', 'configPath', 'valid', 'error', 'error.code', 'error.message', 'error.status', 'error.requestId', 'error.hints'];
/** `profile show`'s view; the preferences' own names are data, under `preferences`. */
export const PROFILE_SHOW_FIELDS: readonly string[] = ['name', 'profileSource', 'current', 'saved', 'baseUrl', 'baseUrlSource', 'api', 'apiSource', 'key', 'keySource', 'keyStoredIn', 'configPath', 'preferences'];

/** Two aligned columns for human output. */
export function alignedFields(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}
