// The webhook secret of `listen` and `sandbox`: from a file (--secret-file FILE), from
// SOCIALPUB_WEBHOOK_SECRET, or from the command line. The last still works, for scripts
// written that way, but `ps` shows every process's arguments to every user of the machine,
// so it warns.
import { readFileSync } from 'node:fs';
import { flagError } from './text.js';

export const WEBHOOK_SECRET_ENV = 'SOCIALPUB_WEBHOOK_SECRET';

export interface SecretFlags {
  /** The flag that takes the secret itself, e.g. --secret. */
  flag: string;
  value: string | undefined;
  /** The flag that takes a file holding it, e.g. --secret-file. */
  fileFlag: string;
  file: string | undefined;
}

export interface ChosenSecret {
  secret: string | undefined;
  source: 'flag' | 'file' | 'env' | undefined;
  /** Where it came from, as messages name it: `--secret-file s.txt`, SOCIALPUB_WEBHOOK_SECRET. */
  from: string | undefined;
  /** Set when the secret was given on the command line. */
  warning: string | undefined;
}

export function chooseWebhookSecret(f: SecretFlags, env: Readonly<Record<string, string | undefined>>): ChosenSecret {
  if (f.value !== undefined && f.file !== undefined) throw flagError(f.fileFlag, `cannot be combined with ${f.flag}`, [`keep ${f.fileFlag} and drop ${f.flag}`]);
  if (f.file !== undefined) return { secret: readSecretFile(f.fileFlag, f.file), source: 'file', from: `${f.fileFlag} ${f.file}`, warning: undefined };
  if (f.value !== undefined) {
    if (f.value.trim() === '') throw flagError(f.flag, 'is empty', ['give a whsec_… secret, or leave the flag out']);
    const warning = `${f.flag} on the command line is visible to other users of this machine (ps); use ${f.fileFlag} FILE or ${WEBHOOK_SECRET_ENV} instead`;
    return { secret: f.value, source: 'flag', from: f.flag, warning };
  }
  const fromEnv = env[WEBHOOK_SECRET_ENV];
  if (fromEnv) return { secret: fromEnv, source: 'env', from: WEBHOOK_SECRET_ENV, warning: undefined };
  return { secret: undefined, source: undefined, from: undefined, warning: undefined };
}

/** The file's text without surrounding whitespace (an editor's final newline). */
function readSecretFile(fileFlag: string, file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a folder' : (err as Error).message;
    throw flagError(fileFlag, `cannot read ${file}: ${why}`, ['give a file that holds the whsec_… secret (mode 600)']);
  }
  const secret = text.trim();
  if (secret === '') throw flagError(fileFlag, `${file} is empty`, ['put the whsec_… secret in it']);
  return secret;
}
