/**
 * A CSV file as a spreadsheet opens it with a given separator: what the CSV formula guard is
 * tested against (tests/unit/csv-cells.test.ts, tests/api/analytics-csv.test.ts).
 */

/** The separators a spreadsheet may split a .csv on: its own comma, a locale's `;`, tab, `|`. */
export const SPREADSHEET_SEPARATORS = [',', ';', '\t', '|'] as const;

/** Whether a spreadsheet runs `field` as a formula: `=` `+` `-` `@` first past whitespace, NFKC-normalised (fullwidth `＝`, …). */
export const startsFormula = (field: string): boolean => /^[=+\-@]/.test(field.replace(/^[\s\0]+/, '').normalize('NFKC'));

/**
 * `text` split as a spreadsheet does with `separator`: a field that starts with a quote runs to its
 * closing quote (`""` is a quote), a quote anywhere else is a character; a line break ends a row.
 */
export const spreadsheetFields = (text: string, separator: string): string[] => {
  const fields: string[] = [];
  let i = 0;
  while (i <= text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      while (i < text.length) {
        if (text[i] === '"' && text[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (text[i] === '"') {
          i += 1;
          break;
        } else {
          field += text[i];
          i += 1;
        }
      }
    }
    while (i < text.length && text[i] !== separator && text[i] !== '\r' && text[i] !== '\n') {
      field += text[i];
      i += 1;
    }
    fields.push(field);
    if (text[i] === '\r' && text[i + 1] === '\n') i += 1;
    i += 1;
  }
  return fields;
};

/** The fields of `text` that start a formula under any separator, but for plain numbers (`-3`), which a spreadsheet reads as numbers. */
export const formulaFields = (text: string): string[] =>
  SPREADSHEET_SEPARATORS.flatMap((separator) =>
    spreadsheetFields(text, separator)
      .filter((field) => startsFormula(field) && !/^-?\d+(\.\d+)?$/.test(field))
      .map((field) => `${JSON.stringify(separator)}: ${JSON.stringify(field.slice(0, 80))}`),
  );
