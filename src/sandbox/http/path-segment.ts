// One segment of a request's path as text: the API's route parameters and the dashboard's post id.

/** A path segment decoded, or kept as written when its %-escapes are malformed (then no id matches it). */
export function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
