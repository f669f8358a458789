import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv } from '../../src/shared/csv.js';

// The CSV reader of imports (docs/behaviour.md#adding-many-desks-at-once).
describe('parseCsv', () => {
  it('reads fields, quotes, doubled quotes, CRLF and blank lines, keeping the line each record starts on', () => {
    const text = '\uFEFFname,type\r\nA1,FLEX\r\n\r\n"B, 2","FIXED"\n"say ""hi""",\n"two\nlines",FLEX\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['name', 'type'] },
      { line: 2, fields: ['A1', 'FLEX'] },
      { line: 4, fields: ['B, 2', 'FIXED'] },
      { line: 5, fields: ['say "hi"', ''] },
      { line: 6, fields: ['two\nlines', 'FLEX'] },
    ]);
  });

  it('takes semicolons when the header has no comma', () => {
    expect(parseCsv('name;type\nA;FIXED')).toEqual([
      { line: 1, fields: ['name', 'type'] },
      { line: 2, fields: ['A', 'FIXED'] },
    ]);
  });

  it('refuses a quote that is never closed, naming its line', () => {
    expect(() => parseCsv('name\nA\n"B\nC')).toThrow(CsvError);
    try {
      parseCsv('name\nA\n"B\nC');
    } catch (error) {
      expect((error as CsvError).line).toBe(3);
    }
  });

  it('reads nothing from an empty text', () => {
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('\n\n')).toEqual([]);
  });
});
