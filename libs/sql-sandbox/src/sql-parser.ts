import { init, parse, ParserError } from '@guanmingchiu/sqlparser-ts';
import { reject } from './sandbox-errors.js';

/**
 * sqlparser-rs (compiled to WebAssembly) with its ClickHouse dialect: a real SQL parser, so
 * the checks run on a syntax tree rather than on patterns in the text.
 * The WASM module loads once per process (about 3.5 MB, ~50 ms); `loadSqlParser` must have
 * resolved before `parseClickHouseSql` is called.
 */
let loaded: Promise<void> | undefined;

export function loadSqlParser(): Promise<void> {
  loaded ??= init();
  return loaded;
}

/** The statements of `text` as the parser's JSON syntax tree (one element per statement). */
export function parseClickHouseSql(text: string): unknown[] {
  try {
    return parse(text, 'clickhouse') as unknown[];
  } catch (error) {
    if (error instanceof ParserError) {
      const detail = error.message.replace(/^sql parser error:\s*/i, '');
      reject(`Syntax error (or syntax the sandbox does not accept): ${detail}`);
    }
    throw error;
  }
}
