// RFC 4180 CSV: quoted fields may hold commas, quotes ("") and line breaks; CRLF or LF. Each
// record remembers the line it starts on, for messages. The delimiter is read from the header.
// Read a piece at a time (CsvReader), so a bulk file of any length is never held whole.

export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * The delimiter the header line uses: ",", or ";" (what spreadsheets write where the comma is the
 * decimal mark), or a tab; whichever occurs most in the first line outside quotes, "," on a tie.
 */
export function detectDelimiter(text: string): string {
  const header = (text.match(/^[^\r\n]*/)?.[0] ?? '').replace(/"[^"]*"/g, '');
  const counts = [',', ';', '\t'].map((d) => [d, header.split(d).length - 1] as const);
  return counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
}

export function parseCsv(text: string, delimiter = detectDelimiter(text)): CsvRecord[] {
  const reader = new CsvReader(delimiter);
  return [...reader.push(text), ...reader.end()];
}

/**
 * CSV text given in pieces: each push answers the records it completed. A record is complete at
 * its line break, so one cut anywhere (inside quotes, between a CR and its LF, after a quote that
 * may be doubled) waits for the next piece and is read again whole; end() reads the last one.
 */
export class CsvReader {
  private rest = '';
  /** The line the unread rest starts on. */
  private line = 1;
  /**
   * The rest of an unquoted field (a quote inside it is plain text), found by the pattern's own
   * scan: walked a character at a time in script, it was a tenth of a bulk check's time a row.
   */
  private readonly unquotedRun: RegExp;

  constructor(private readonly delimiter: string) {
    this.unquotedRun = new RegExp(`[^${delimiter}\\r\\n]*`, 'y');
  }

  push(text: string): CsvRecord[] {
    return this.read(this.rest + text, false);
  }

  end(): CsvRecord[] {
    return this.read(this.rest, true);
  }

  private read(text: string, final: boolean): CsvRecord[] {
    const delimiter = this.delimiter;
    const run = this.unquotedRun;
    const records: CsvRecord[] = [];
    let fields: string[] = [];
    let field = '';
    let line = this.line;
    let col = 0;
    let recordLine = line;
    let recordStart = 0;
    let i = 0;
    let atFieldStart = true;
    let quoted = false; // the current field was quoted (so an empty line check does not drop it)
    const endRecord = () => {
      fields.push(field);
      // A blank line (one empty, unquoted field) is not a record.
      if (!(fields.length === 1 && fields[0] === '' && !quoted)) records.push({ line: recordLine, fields });
      fields = [];
      field = '';
      atFieldStart = true;
      quoted = false;
    };
    while (i < text.length) {
      const ch = text[i]!;
      if (atFieldStart && ch === '"') {
        quoted = true;
        atFieldStart = false;
        const startLine = line;
        const startCol = col + 1;
        i++;
        col++;
        let closed = false;
        while (i < text.length) {
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              col += 2;
              continue;
            }
            i++;
            col++;
            closed = true;
            break;
          }
          if (c === '\n') {
            line++;
            col = 0;
          } else col++;
          field += c;
          i++;
        }
        if (!closed) {
          if (final) throw new CsvSyntaxError(startLine, startCol, `line ${startLine}: a quoted field is never closed`);
          break;
        }
        const next = text[i];
        if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r') {
          throw new CsvSyntaxError(line, col + 1, `line ${line}: unexpected ${JSON.stringify(next)} after a closing quote (quotes inside a field are written "")`);
        }
        continue;
      }
      atFieldStart = false;
      if (ch === delimiter) {
        fields.push(field);
        field = '';
        atFieldStart = true;
        i++;
        col++;
      } else if (ch === '\r' && text[i + 1] === '\n') {
        endRecord();
        i += 2;
        line++;
        col = 0;
        recordLine = line;
        recordStart = i;
      } else if (ch === '\n') {
        endRecord();
        i++;
        line++;
        col = 0;
        recordLine = line;
        recordStart = i;
      } else {
        // The rest of an unquoted field in one slice, not a character at a time.
        // Its first character is taken whatever it is (a CR without its LF is text).
        run.lastIndex = i + 1;
        run.test(text);
        const end = run.lastIndex;
        field += text.slice(i, end);
        col += end - i;
        i = end;
      }
    }
    if (final) {
      if (field !== '' || fields.length > 0 || quoted) endRecord();
      this.rest = '';
    } else {
      // The record the text ends in (no line break yet) is read again with the next piece.
      this.rest = text.slice(recordStart);
      this.line = recordLine;
    }
    return records;
  }
}
