// Profile names end up in a JSON object key and on command lines: keep them plain.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why a name cannot be a profile name, or undefined when it can. */
export function profileNameProblem(name: string): string | undefined {
  if (NAME.test(name)) return undefined;
  return `"${name}" is not a valid profile name: use 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit`;
}
