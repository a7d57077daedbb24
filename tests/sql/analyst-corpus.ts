import { readFileSync } from 'node:fs';

/** The engines a corpus query runs on: ClickHouse 18.16 ('legacy') and 26.x ('modern'). */
export type Engine = 'legacy' | 'modern';
export type CorpusQuery = { name: string; sql: string; engines: readonly Engine[] };

const CORPUS_FILE = new URL('./analyst-corpus.sql', import.meta.url);
const HEADER = /^-- @query (\S+)((?: (?:legacy|modern))+)\s*$/;

/**
 * The analyst corpus (analyst-corpus.sql): each entry runs from its `-- @query <name>
 * <engines…>` line to the next one; comment lines before the first entry are the file's preamble.
 */
export function loadAnalystCorpus(): CorpusQuery[] {
  const queries: { name: string; engines: Engine[]; lines: string[] }[] = [];
  for (const line of readFileSync(CORPUS_FILE, 'utf8').split('\n')) {
    const header = HEADER.exec(line);
    if (header) {
      queries.push({ name: header[1]!, engines: header[2]!.trim().split(' ') as Engine[], lines: [] });
    } else if (line.startsWith('-- @query')) {
      throw new Error(`analyst-corpus.sql: malformed entry line: ${line}`);
    } else if (queries.length > 0 && !/^-- ----/.test(line)) {
      queries.at(-1)!.lines.push(line);
    }
  }
  return queries.map(({ name, engines, lines }) => ({ name, engines, sql: lines.join('\n').trim() }));
}
