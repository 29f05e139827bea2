// `--account <id|@handle|platform:@handle>` (and a tool's `accounts`) → accounts of the workspace.
// An unknown or ambiguous reference is invalid input naming the field, with "did you mean" and
// the candidates, raised before anything is sent beyond the accounts lookup; an account looked up
// by itself (`accounts view`) that does not exist is not found instead, as a 404 would be.
import { InvalidInputError, UnknownIdError, type InputIssue } from '../wire/invalid-input.js';
import { isPlatform } from '../wire/platforms.js';
import { nearest, suggestPlatform } from '../wire/suggest.js';
import type { SocialAccount } from '../wire/account-schemas.js';
import { accountLabel } from './label.js';

const bare = (handle: string) => handle.trim().replace(/^@+/, '').toLowerCase();

/** Candidates shown with a problem: enough to pick from, not a wall. */
const SHOWN = 12;
const listOf = (accounts: readonly SocialAccount[]) =>
  accounts.slice(0, SHOWN).map(accountLabel).join(', ') + (accounts.length > SHOWN ? `, … (${accounts.length - SHOWN} more: socialpub accounts list)` : '');

/** The accounts a reference names: none, one, or several when a handle repeats across platforms. */
function matchRef(ref: string, accounts: readonly SocialAccount[]): { found: SocialAccount[]; platform?: string } {
  const byId = accounts.filter((a) => a.id === ref);
  if (byId.length) return { found: byId };
  const colon = ref.indexOf(':');
  if (colon > 0) {
    const platform = ref.slice(0, colon).trim().toLowerCase();
    const handle = bare(ref.slice(colon + 1));
    return { found: accounts.filter((a) => a.platform === platform && bare(a.username ?? '') === handle), platform };
  }
  return { found: accounts.filter((a) => bare(a.username ?? '') === bare(ref)) };
}

/** What is wrong with a reference; `unknown`: well formed, but no account has it. */
type RefProblem = InputIssue & { unknown?: true };

function problem(ref: string, field: string, accounts: readonly SocialAccount[], derived: boolean): RefProblem | undefined {
  const { found, platform } = matchRef(ref, accounts);
  if (found.length === 1) return undefined;
  if (found.length > 1) {
    return { field, message: `${field} ${ref}: ${found.length} accounts have this handle`, fix: `name one: ${listOf(found)}` };
  }
  if (platform !== undefined && !isPlatform(platform)) {
    const meant = suggestPlatform(platform);
    return { field, message: `${field} ${ref}: "${platform}" is not a platform`, fix: `${meant ? `did you mean ${meant}:${ref.slice(ref.indexOf(':') + 1)}? ` : ''}accounts: ${listOf(accounts)}` };
  }
  const pool = platform ? accounts.filter((a) => a.platform === platform) : accounts;
  const names = pool.flatMap((a) => [a.id, `@${bare(a.username ?? '')}`]);
  const near = nearest(platform ? `@${bare(ref.slice(ref.indexOf(':') + 1))}` : ref.startsWith('acc') ? ref : `@${bare(ref)}`, names);
  const meant = near ? pool.find((a) => a.id === near || `@${bare(a.username ?? '')}` === near) : undefined;
  const where = derived ? ' among the accounts seen in recent results' : '';
  return {
    field,
    unknown: true,
    message: `${field} ${ref}: no such account${platform ? ` on ${platform}` : ''}${where}`,
    fix: `${meant ? `did you mean ${accountLabel(meant)}? ` : ''}${accounts.length ? `accounts: ${listOf(platform ? pool : accounts)}` : 'the workspace has no accounts to publish to'}`,
  };
}

/**
 * Every reference resolved, in order, without repeats; InvalidInputError naming `field` for every
 * reference that matches no account or several.
 */
export function resolveAccounts(refs: readonly string[], accounts: readonly SocialAccount[], options: { field?: string; derived?: boolean } = {}): SocialAccount[] {
  const field = options.field ?? '--account';
  const issues: InputIssue[] = [];
  const out: SocialAccount[] = [];
  for (const raw of refs) {
    const ref = raw.trim();
    if (!ref) {
      issues.push({ field, message: `${field}: empty`, fix: 'give an account id, @handle or platform:@handle (socialpub accounts list shows them)' });
      continue;
    }
    const p = problem(ref, field, accounts, options.derived ?? false);
    if (p) issues.push({ field: p.field, message: p.message, ...(p.fix ? { fix: p.fix } : {}) });
    else {
      const a = matchRef(ref, accounts).found[0]!;
      if (!out.includes(a)) out.push(a);
    }
  }
  if (issues.length) throw new InvalidInputError(issues, { what: field });
  return out;
}

/**
 * The one account a reference names, when it is looked up for itself (`accounts view`): one that
 * no account has is UnknownIdError (exit 4, as a 404 would be), with "did you mean" and the
 * candidates; an empty, ambiguous or ill-formed reference (a platform that is not one) stays
 * invalid input (exit 2).
 */
export function resolveAccount(ref: string, accounts: readonly SocialAccount[], options: { field?: string; derived?: boolean } = {}): SocialAccount {
  const text = ref.trim();
  const p = text ? problem(text, options.field ?? '--account', accounts, options.derived ?? false) : undefined;
  if (p?.unknown) throw new UnknownIdError(p.message, p.fix ? [p.fix] : []);
  return resolveAccounts([ref], accounts, options)[0]!;
}

/** Accounts grouped by platform, in the order given: what each payload's `accounts` becomes. */
export function accountsByPlatform(accounts: readonly SocialAccount[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const a of accounts) map.set(a.platform, [...(map.get(a.platform) ?? []), a.id]);
  return map;
}

/** What attachAccounts writes to: a payload per platform with its fields beyond text and media (PlatformDraft fits). */
export interface PayloadTarget {
  platform: string;
  extra: Record<string, unknown>;
}

/**
 * Each payload of a platform the accounts are on names them (`accounts`); an account of a
 * platform the post does not go to is a problem naming `field`.
 */
export function attachAccounts(targets: readonly PayloadTarget[], accounts: readonly SocialAccount[], field = '--account'): InputIssue[] {
  const issues: InputIssue[] = [];
  for (const [platform, ids] of accountsByPlatform(accounts)) {
    const target = targets.find((t) => t.platform === platform);
    if (target) target.extra = { ...target.extra, accounts: ids };
    else {
      const names = accounts.filter((a) => a.platform === platform).map(accountLabel).join(', ');
      issues.push({ field, message: `${field} ${names}: the post does not go to ${platform}`, fix: `add ${platform} to the post's platforms, or leave that account out` });
    }
  }
  return issues;
}
