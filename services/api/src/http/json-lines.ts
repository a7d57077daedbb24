import type { Response } from 'express';

const OPEN = Buffer.from('{"success":true,"data":[');
const CLOSE = Buffer.from(']}');
const NEWLINE = 0x0a;
const COMMA = 0x2c;

/**
 * The registry's envelope, `{"success":true,"data":[…]}`, around rows ClickHouse wrote as JSON
 * lines (ClickHouseReader.jsonLines), without parsing them: the newline after each row becomes
 * the comma between rows. Inside a JSON string a newline is always escaped, so every newline
 * byte ends a row. The lines' buffer is changed in place.
 */
export function dataArrayOfJsonLines(lines: Buffer): Buffer {
  let end = lines.length;
  while (end > 0 && lines[end - 1] === NEWLINE) end--;
  const rows = lines.subarray(0, end);
  for (let i = rows.indexOf(NEWLINE); i !== -1; i = rows.indexOf(NEWLINE, i + 1)) rows[i] = COMMA;
  return Buffer.concat([OPEN, rows, CLOSE]);
}

/** Answers 200 with those rows as the data array (for large answers: a 40,000-cell heatmap). */
export function sendJsonLines(res: Response, lines: Buffer): void {
  res.status(200).type('application/json').end(dataArrayOfJsonLines(lines));
}
