// Where a JSON text first goes wrong, as line and column. JSON.parse's messages on Node 20 give
// a position only for some errors, so a small scanner finds the spot itself.

export interface JsonProblem {
  line: number;
  column: number;
  message: string;
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let col = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') [line, col] = [line + 1, 1];
    else col++;
  }
  return { line, column: col };
}

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly what: string,
  ) {
    super(what);
  }
}

/** Parses JSON; on a syntax error returns the problem with its line and column instead. */
export function parseJsonWithLocation(text: string): { ok: true; value: unknown } | { ok: false; problem: JsonProblem } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const { at, what } = locate(text);
    const { line, column } = lineColumn(text, at);
    return { ok: false, problem: { line, column, message: what } };
  }
}

function describe(ch: string | undefined): string {
  if (ch === undefined) return 'end of input';
  if (ch === '\n') return 'a line break';
  if (ch === '"') return 'a double quote';
  return `"${ch}"`;
}

/** Finds the first syntax error (assumes there is one). */
function locate(text: string): { at: number; what: string } {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new Stop(i, what);
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail(`unexpected ${describe(text[i])} (expected ${word})`);
      i++;
    }
  };
  const string = () => {
    i++; // opening quote
    while (true) {
      const ch = text[i];
      if (ch === undefined) fail('unterminated string');
      if (ch === '"') return void i++;
      if (ch === '\n' || (ch! < ' ')) fail('line break or control character inside a string (write \\n)');
      if (ch === '\\') {
        i++;
        const e = text[i];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('bad \\u escape');
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail(`bad escape \\${e ?? ''}`);
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail(`unexpected ${describe(text[i])}`);
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') return object();
    if (ch === '[') return array();
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    if (ch === "'") fail('strings need double quotes');
    fail(ch === undefined ? 'unexpected end of input (a value is missing)' : `unexpected ${describe(ch)} (expected a value)`);
  };
  /** After a value: a "," (true: another one follows) or the closing bracket (false); both stepped over. */
  const comma = (close: string): boolean => {
    const end = i;
    ws();
    if (text[i] === close || text[i] === ',') return text[i++] === ',';
    // The usual slip in a hand-edited file: a line added or moved without its ",". Said where
    // the comma belongs (the end of the line before), not where the parser noticed.
    if (text.slice(end, i).includes('\n')) {
      i = end;
      fail(`a "," is missing at the end of the line (before the next ${close === '}' ? 'property' : 'item'})`);
    }
    return fail(`expected "," or "${close}", found ${describe(text[i])}`);
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') return void i++;
    while (true) {
      ws();
      if (text[i] === '}') fail('trailing comma before "}"');
      if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describe(text[i])}`);
      string();
      ws();
      if (text[i] !== ':') fail(`expected ":" after the property name, found ${describe(text[i])}`);
      i++;
      value();
      if (!comma('}')) return;
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') return void i++;
    while (true) {
      ws();
      if (text[i] === ']') fail('trailing comma before "]"');
      value();
      if (!comma(']')) return;
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe(text[i])} after the end of the JSON value`);
    return { at: text.length, what: 'invalid JSON' };
  } catch (e) {
    if (e instanceof Stop) return { at: e.at, what: e.what };
    throw e;
  }
}
