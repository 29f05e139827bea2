// Which --jq programs over a whole list (--json) can be run on the list a piece at a time. A
// program `.[] | F` (or `.[]`, `.[].id`, `.[]?`) runs F on each row by itself, so over the rows
// in pieces it prints exactly what it prints over all of them at once, and the rows need not all
// be held (a million rows held for jq took gigabytes). Read from the text, without jq: only the
// head is parsed, and anything unsure is treated as a whole-list program.

/**
 * `.[]`, then path steps without spaces (`.id`, `."a b"`, `[0]`, `["a"]`, `[]`, each maybe with
 * `?`), then the end or a pipe that is not `|=` (an update of the whole list). `|` is jq's loosest
 * operator, so everything after it is the body run per row; `as`, `,`, `//` and the like after the
 * head make the program a whole-list one and do not match.
 */
const ROW_HEAD = /^\s*\.\[\]\??(?:(?:\.[A-Za-z_][A-Za-z0-9_]*|\.?\[(?:-?\d+|"[^"\\]*")?\]|\."[^"\\]*")\??)*\s*(?:$|\|(?!=))/;

/**
 * Builtins that stop jq altogether (`halt`, `halt_error`): run per piece, the pieces after would
 * still print. (`input` and `inputs` are no reason: every run, whole or a piece, has one input.)
 */
const WHOLE_RUN = /\bhalt(?:_error)?\b/;

export function runsPerRow(expression: string): boolean {
  return ROW_HEAD.test(expression) && !WHOLE_RUN.test(expression);
}
