// TSV read back as a script would: rows on line breaks, cells on tabs, and each escape the
// writer uses (\\ \t \n \uXXXX) turned back into its character.
export function readTsvCell(cell: string): string {
  return cell.replace(/\\(\\|t|n|u([0-9a-fA-F]{4}))/g, (_m, e: string, hex?: string) => (hex ? String.fromCharCode(parseInt(hex, 16)) : e === 't' ? '\t' : e === 'n' ? '\n' : '\\'));
}

export const readTsv = (text: string): string[][] =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => line.split('\t').map(readTsvCell));
