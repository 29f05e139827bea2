// A platform of a post whose account the dialect cannot pick alone: SyncPostly's accounts carry
// no default flag, so a platform with several accounts (or none) and no `--account` is refused
// before anything is sent, naming the candidates. The client raises it; the CLI may ask on a
// terminal instead (exit 2 otherwise), the MCP server returns it as invalid input.
import { InvalidInputError } from '../invalid-input.js';

export interface AccountCandidate {
  id: string;
  platform: string;
  username?: string | null | undefined;
  displayName?: string | null | undefined;
}

export class AccountChoiceError extends InvalidInputError {
  readonly platform: string;
  readonly candidates: readonly AccountCandidate[];
  constructor(platform: string, candidates: readonly AccountCandidate[]) {
    const named = candidates.map((c) => `${c.id}${c.username ? ` (@${c.username})` : ''}`).join(', ');
    super([
      candidates.length === 0
        ? { field: `payloads.${platform}`, message: `the workspace has no ${platform} account on SyncPostly`, fix: 'connect one in SyncPostly, or leave this platform out' }
        : {
            field: `payloads.${platform}.accounts`,
            message: `${platform} has ${candidates.length} accounts on SyncPostly and its API names no default: ${named}`,
            fix: `name one with --account ${candidates[0]!.id} (or ${platform}:@handle)`,
          },
    ]);
    this.platform = platform;
    this.candidates = candidates;
  }
}
