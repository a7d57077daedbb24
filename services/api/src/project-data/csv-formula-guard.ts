import { Transform } from 'node:stream';

const QUOTE = 0x22;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const APOSTROPHE = Buffer.from("'");

/** A text cell starting with one of these is a formula (or becomes one) in spreadsheet software. */
const FORMULA_START = new Set([0x3d /* = */, 0x2b /* + */, 0x2d /* - */, 0x40 /* @ */, 0x09 /* tab */, 0x0d /* CR */]);
/**
 * Unquoted cells are numbers, \N or arrays in ClickHouse's CSV; a negative number (-12.5) must
 * stay a number, so only the starts that no number has are neutralised there.
 */
const UNQUOTED_FORMULA_START = new Set([0x3d /* = */, 0x40 /* @ */, 0x09 /* tab */]);

const enum State {
  FieldStart,
  Unquoted,
  QuotedFirst,
  Quoted,
  QuoteInQuoted,
}

/**
 * Neutralises CSV formula injection (OWASP "CSV Injection") in a CSV byte stream as ClickHouse
 * writes it (CSVWithNames: text quoted with ", "" inside, fields separated by commas, rows by
 * \n): a text cell starting with =, +, -, @, tab or CR gets a leading ' so spreadsheet software
 * shows it as text instead of evaluating it. Event names, player ids, attributes… are whatever
 * an SDK sent, so an export opened in Excel must not run them.
 *
 * A byte-level state machine that carries its state across chunks: memory stays bounded by the
 * chunk size (the export never parses rows), and the cost is one pass over the bytes.
 */
export function csvFormulaGuard(): Transform {
  let state = State.FieldStart;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const parts: Buffer[] = [];
      let from = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i]!;
        switch (state) {
          case State.FieldStart:
            if (byte === QUOTE) state = State.QuotedFirst;
            else {
              if (UNQUOTED_FORMULA_START.has(byte)) {
                parts.push(chunk.subarray(from, i), APOSTROPHE);
                from = i;
              }
              state = byte === COMMA || byte === NEWLINE ? State.FieldStart : State.Unquoted;
            }
            break;
          case State.Unquoted:
            if (byte === COMMA || byte === NEWLINE) state = State.FieldStart;
            break;
          case State.QuotedFirst:
            if (FORMULA_START.has(byte)) {
              parts.push(chunk.subarray(from, i), APOSTROPHE);
              from = i;
            }
            state = byte === QUOTE ? State.QuoteInQuoted : State.Quoted;
            break;
          case State.Quoted:
            if (byte === QUOTE) state = State.QuoteInQuoted;
            break;
          case State.QuoteInQuoted: // "" is a quote inside the text; anything else ends it
            if (byte === QUOTE) state = State.Quoted;
            else state = byte === COMMA || byte === NEWLINE ? State.FieldStart : State.Unquoted;
            break;
        }
      }
      if (parts.length === 0) return done(null, chunk);
      parts.push(chunk.subarray(from));
      done(null, Buffer.concat(parts));
    },
  });
}
