// PLACEHOLDER until the request pipeline lands (issue 2): replaced by the real createClient.
import type { ApiClient, ClientOptions } from './types.js';
export function createClient(_options: ClientOptions): ApiClient {
  throw new Error('client not implemented yet');
}
