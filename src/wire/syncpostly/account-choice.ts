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

/** Candidates named in a message: enough to pick from, not a wall (a workspace may have hundreds). */
const SHOWN = 12;

/**
 * The first candidates as `show` words them, then how many more and where to see them all
 * (`seeAll`: the CLI's command by default; the MCP server names its tool).
 */
export function someCandidates(platform: string, candidates: readonly AccountCandidate[], show: (c: AccountCandidate) => string, seeAll = `socialpub accounts list --platform ${platform}`): string {
  const more = candidates.length - SHOWN;
  return candidates.slice(0, SHOWN).map(show).join(', ') + (more > 0 ? `, … (${more} more: ${seeAll})` : '');
}

export class AccountChoiceError extends InvalidInputError {
  readonly platform: string;
  readonly candidates: readonly AccountCandidate[];
  constructor(platform: string, candidates: readonly AccountCandidate[]) {
    const named = someCandidates(platform, candidates, (c) => `${c.id}${c.username ? ` (@${c.username})` : ''}`);
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
