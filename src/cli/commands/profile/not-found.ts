// A profile name that is not in the file: exit 4 (not found), with the way to create it and the
// profiles there are. A command that needed its key says so with exit 3 (no key).
import { CliError, EXIT, type ExitCode } from '../../cli-error.js';
import { profileNameProblem, type ProfileStore } from '../../../config/types.js';
import { nearest } from '../../../wire/suggest.js';

export function profileNotFound(name: string, store: Pick<ProfileStore, 'names' | 'path'>, exitCode: ExitCode = EXIT.notFound): CliError {
  const names = store.names();
  // A misspelt name first gets the profile it was meant to be, before the way to create it anew.
  const near = nearest(name, names);
  return new CliError(`there is no profile named "${name}" in ${store.path}`, {
    exitCode,
    code: 'PROFILE_NOT_FOUND',
    hints: [
      ...(near ? [`did you mean "${near}"?`] : []),
      // A name no profile can have is not one to create.
      profileNameProblem(name) ?? `create it with \`socialpub auth login --profile ${name}\``,
      names.length ? `existing profiles: ${names.join(', ')}` : 'there are no profiles yet',
    ],
  });
}
