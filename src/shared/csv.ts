/**
 * A small CSV reader (RFC 4180) for imports (docs/behaviour.md#adding-many-desks-at-once): fields
 * separated by commas (or semicolons, when the header line has no comma but a semicolon, as
 * spreadsheets in many locales write), optionally in double quotes with `""` for a quote inside;
 * lines end in LF or CRLF; a quoted field may span lines. Blank lines are skipped. Each record
 * keeps the line it starts on (1-based), for row-level errors.
 */

export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvError extends Error {
  override name = 'CsvError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseCsv(text: string): CsvRecord[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const separator = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const records: CsvRecord[] = [];
  let line = 1;
  let position = 0;
  while (position <= body.length) {
    const start = line;
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    let ended = false;
    while (!ended) {
      if (position >= body.length) {
        if (quoted) throw new CsvError(start, 'a quoted field is not closed');
        position++;
        break;
      }
      const char = body[position]!;
      if (quoted) {
        if (char === '"') {
          if (body[position + 1] === '"') {
            field += '"';
            position += 2;
          } else {
            quoted = false;
            position++;
          }
        } else {
          if (char === '\n') line++;
          field += char;
          position++;
        }
      } else if (char === '"' && field.length === 0) {
        quoted = true;
        position++;
      } else if (char === separator) {
        fields.push(field);
        field = '';
        position++;
      } else if (char === '\n' || (char === '\r' && body[position + 1] === '\n')) {
        position += char === '\r' ? 2 : 1;
        line++;
        ended = true;
      } else {
        field += char;
        position++;
      }
    }
    fields.push(field);
    if (!(fields.length === 1 && fields[0]!.trim() === '')) records.push({ line: start, fields });
  }
  return records;
}
