// "the workspace of …" in not-found messages: an id is looked up in the workspace of the key in
// use, so name where that key came from (SOCIALPUB_API_KEY overrides any profile's key).
import type { ResolvedProfile } from '../config/types.js';

export function keyWorkspace(profile: Pick<ResolvedProfile, 'name' | 'keySource'>): string {
  return profile.keySource === 'env' ? 'the workspace of the key in SOCIALPUB_API_KEY' : `the workspace of profile ${profile.name}`;
}
