/** One row of a CSV text, with the line it starts on (1-based). */
export interface CsvRow {
  line: number;
  cells: string[];
}

/**
 * The rows of a CSV text (RFC 4180: a field that starts with a quote may hold commas, line breaks and
 * doubled quotes; CRLF or LF), cells as written; rows with only blank cells are left out.
 */
export function parseCsv(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let value = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const endRow = (): void => {
    cells.push(value);
    if (cells.some((cell): boolean => cell.trim() !== '')) {
      rows.push({ line: start, cells });
    }
    cells = [];
    value = '';
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        value += '"';
        index += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        line += char === '\n' ? 1 : 0;
        value += char;
      }
    } else if (char === '"' && value === '') {
      quoted = true;
    } else if (char === ',') {
      cells.push(value);
      value = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') {
        index += 1;
      }
      endRow();
      line += 1;
      start = line;
    } else {
      value += char;
    }
  }
  if (value !== '' || cells.length > 0) {
    endRow();
  }
  return rows;
}
