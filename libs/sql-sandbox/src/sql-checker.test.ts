import { beforeAll, describe, expect, it } from 'vitest';
import { SqlRejection } from './sandbox-errors.js';
import { checkAnalystQuery, loadSqlChecker } from './sql-checker.js';

beforeAll(() => loadSqlChecker());

const rejection = (sql: string) => {
  try {
    checkAnalystQuery(sql);
  } catch (error) {
    if (error instanceof SqlRejection) return error.message;
    throw error;
  }
  return undefined;
};

describe('checkAnalystQuery accepts analyst SQL', () => {
  it.each([
    'SELECT count() AS n FROM events',
    'SELECT event_name, count() AS n, uniqExact(player_id) FROM events GROUP BY event_name ORDER BY n DESC LIMIT 10',
    'SELECT map_id, avg(fps), quantile(0.95)(frame_time_ms) FROM events WHERE timestamp >= now() - INTERVAL 30 DAY GROUP BY map_id HAVING count() > 1',
    "SELECT player_id, windowFunnel(3600)(timestamp, event_name = 'start', event_name = 'finish') AS level FROM events GROUP BY player_id",
    'SELECT sum(r[1]), sum(r[2]) FROM (SELECT retention(toDate(timestamp) = today(), toDate(timestamp) = yesterday()) AS r FROM events GROUP BY player_id)',
    'SELECT k, count() FROM events ARRAY JOIN attributes.key AS k GROUP BY k',
    "SELECT a.key, a.value FROM events ARRAY JOIN attributes AS a WHERE a.key = 'weapon'",
    'SELECT arrayJoin(metrics.key) AS m, count() FROM events GROUP BY m',
    "SELECT event_name FROM events WHERE player_id IN (SELECT player_id FROM events WHERE event_name = 'finish')",
    "SELECT 'a', count() FROM events WHERE platform = 'pc' UNION ALL SELECT 'b', count() FROM events",
    "WITH finishers AS (SELECT DISTINCT player_id FROM events WHERE event_name = 'finish') SELECT count() FROM finishers",
    'WITH a AS (SELECT player_id FROM events), b AS (SELECT * FROM a) SELECT count() FROM b',
    'SELECT e.event_name, s.n FROM events AS e INNER JOIN (SELECT session_id, count() AS n FROM events GROUP BY session_id) AS s ON e.session_id = s.session_id',
    'SELECT toStartOfDay(timestamp) AS day, countIf(fps < 30), sumIf(1, fps >= 30), avgOrNull(gpu_time_ms) FROM events GROUP BY day',
    'SELECT `event_name`, "map_id" FROM events',
    "SELECT CAST(fps AS UInt32), multiIf(fps < 30, 'bad', 'good'), coalesce(camera_pitch, 0) FROM events",
    'SELECT arrayMap(x -> x * 2, [1, 2, 3]), arrayFilter(x -> x > 1, [1, 2]) FROM events',
    "SELECT CASE WHEN fps < 30 THEN 'slow' ELSE 'fast' END FROM events",
    "SELECT DATE '2026-01-01', toDate(timestamp) BETWEEN toDate('2020-01-01') AND today() FROM events",
    'SELECT * FROM events ORDER BY timestamp_us LIMIT 5 BY map_id',
    "SELECT event_name FROM events PREWHERE map_id = 'forest' WHERE fps > 0",
    'SELECT (SELECT count() FROM events) AS total',
    'SELECT count() FROM events AS e ANY LEFT JOIN (SELECT event_id, 1 AS z FROM events) AS s USING (event_id)',
    'SELECT count() FROM events ALL INNER JOIN (SELECT event_id FROM events) AS s USING (event_id)',
    'SELECT count() FROM events AS e LEFT SEMI JOIN (SELECT event_id FROM events) AS s ON e.event_id = s.event_id',
    'SELECT a, b FROM events ARRAY JOIN attributes.key AS a, attributes.value AS b',
    'SELECT k, v FROM events LEFT ARRAY JOIN metrics.key AS k, metrics.value AS v WHERE v > 1',
    'SELECT t.1, t.2 AS second FROM (SELECT tuple(fps, map_id) AS t FROM events)',
    "SELECT 'ANY LEFT JOIN t.1' AS text FROM events",
    'WITH 30 AS slow SELECT countIf(fps < slow) FROM events',
    'WITH (SELECT count() FROM events) AS total, 100 AS pct SELECT event_name, pct * count() / total FROM events GROUP BY event_name',
    "WITH\n  'a''b' AS s,\n  `map_id` AS m\nSELECT s, m FROM events",
    "SELECT count() FROM events WHERE event_name IN ('start', 'finish')",
    'select COUNT(*) from events -- trailing comment',
    '/* leading */ SELECT sum(fps) FROM events;',
    "SELECT count() FROM events WHERE event_name = 'it''s \\'quoted\\' -- not a comment'",
    "SELECT match(build_id, '^\\\\d+\\\\.\\\\d+$') FROM events",
    "SELECT count() FROM events WHERE player_id = 'игрок 😀'",
    // ClickHouse forms sqlparser does not know, read through parserText / splitWithLists:
    'SELECT 1 FROM events UNION DISTINCT SELECT 2 FROM events',
    'SELECT 1 FROM events UNION SELECT 2 FROM events EXCEPT SELECT 3 FROM events',
    'WITH 1 AS a, t AS (SELECT player_id FROM events) SELECT a, count() FROM t',
    'WITH t AS (SELECT player_id FROM events), 5 AS k, (SELECT count() FROM t) AS n SELECT n * k FROM t',
    'SELECT * FROM (WITH [1, 2] AS arr, 2 AS k SELECT arr, fps * k AS f FROM events) WHERE f > 1',
    'SELECT `t`.1, tuple(1, 2).2, [tuple(1, 2)][1].1, (fps, map_id).2, e.position.1 FROM (SELECT tuple(1, 2) AS t) AS x, events AS e',
    'SELECT count() FROM events WHERE player_id GLOBAL NOT IN (SELECT player_id FROM events)',
    "SELECT fps > 30 ? 'good' : 'bad', fps::UInt8 FROM events",
    'SELECT player_id, fps FROM events ORDER BY fps LIMIT 1, 2 BY player_id LIMIT 10 OFFSET 3',
    'SELECT fps FROM events ORDER BY fps LIMIT 3 WITH TIES',
    'SELECT toDate(timestamp) AS d, count() FROM events GROUP BY d ORDER BY d WITH FILL STEP 1',
    'SELECT sum(fps) OVER w FROM events WINDOW w AS (PARTITION BY player_id ORDER BY timestamp)',
    'SELECT map_id, platform, count() FROM events GROUP BY ROLLUP(map_id, platform)',
    'SELECT map_id, count() FROM events GROUP BY GROUPING SETS ((map_id), (platform))',
    'SELECT * EXCEPT (fps) FROM events',
    "SELECT attributes['ci.branch'], e.metrics['mem.vram'], metrics[attributes['k']] FROM events AS e",
    'SELECT count() FROM events AS a JOIN events AS b USING event_id',
    'SELECT count() FROM events AS a JOIN events AS b USING event_id, `session_id` WHERE fps > 0',
    'SELECT d, count() FROM events GROUP BY toDate(timestamp) AS d, lower(platform) AS `p` WITH TOTALS ORDER BY d',
    'SELECT count() FROM events GROUP BY CAST(fps AS String), (SELECT 1) AS one',
    "SELECT COLUMNS('_ms$'), max(COLUMNS('^fps$')), columns(fps, map_id) FROM events",
    'SELECT fps DIV 2, fps MOD 7, 7 div 2, (fps) MOD 3, `fps` DIV 4 FROM events WHERE fps MOD 2 = 0',
    'SELECT fps AS div, fps AS mod FROM events ORDER BY div, mod',
  ])('%s', (sql) => {
    expect(rejection(sql)).toBeUndefined();
  });

  it.each([
    'WITH x -> x * 2 AS f SELECT f(fps) FROM events',
    'WITH (a, b) -> a / b AS ratio SELECT ratio(sum(gpu_time_ms), sum(frame_time_ms)) FROM events',
    'WITH x -> x * 2 AS f, f(3) AS six SELECT six, (SELECT max(f(fps)) FROM events) FROM events',
    'SELECT * FROM (WITH x -> x + 1 AS inc SELECT inc(fps) FROM events)',
  ])('%s, calling a WITH lambda by name where the server resolves it (lambdaCallsByName)', (sql) => {
    expect(() => checkAnalystQuery(sql, { lambdaCallsByName: true })).not.toThrow();
    // Where the server would call its own function of that name instead (18.16): refused.
    expect(rejection(sql)).toMatch(/is not allowed/);
  });

  it('returns the checked text, which is what gets sent', () => {
    expect(checkAnalystQuery('SELECT 1 FROM events; -- bye').text).toBe('SELECT 1 FROM events');
  });
});

describe('checkAnalystQuery refuses', () => {
  it.each([
    ['a qualified table', 'SELECT * FROM framedeck.events', /Table framedeck\.events is not available/],
    ['a quoted qualified table', 'SELECT * FROM `system`.`tables`', /Table system\.tables is not available/],
    [
      'a system table in a join',
      'SELECT * FROM events AS e JOIN system.one AS o ON 1 = 1',
      /system\.one is not available/,
    ],
    ['a comma join', 'SELECT * FROM events, system.one', /system\.one is not available/],
    ['another table name', 'SELECT * FROM event_rejections', /Table event_rejections is not available/],
    ['a case variant of events', 'SELECT * FROM EVENTS', /Table EVENTS is not available/],
    ['a table in a scalar subquery', 'SELECT (SELECT count() FROM system.tables)', /system\.tables/],
    ['a table in IN (subquery)', 'SELECT 1 FROM events WHERE 1 IN (SELECT 1 FROM system.one)', /system\.one/],
    ['a table in a derived table', 'SELECT * FROM (SELECT * FROM default.events)', /default\.events/],
    ['a table in a UNION branch', 'SELECT 1 FROM events UNION ALL SELECT 1 FROM system.one', /system\.one/],
    ['a WITH entry reading another table', 'WITH x AS (SELECT * FROM system.one) SELECT * FROM x', /system\.one/],
    [
      'a WITH name shadowing events',
      'WITH events AS (SELECT * FROM framedeck.events) SELECT * FROM events',
      /framedeck\.events/,
    ],
    ['a WITH entry reading itself', 'WITH x AS (SELECT * FROM x) SELECT * FROM x', /Table x is not available/],
    [
      'a WITH name used outside its query',
      'SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x), x',
      /Table x is not available/,
    ],
    [
      'true/false in IN (18.16 reads them as names: alias substitution names a table)',
      'SELECT 0 IN (true) AS r, framedeck.nope AS `true` FROM (SELECT 1 AS `framedeck.nope`)',
      /does not take true\/false/,
    ],
    ['IN ((false))', 'SELECT 1 IN ((false)) FROM events', /does not take true\/false/],
    ['an alias spelled like a literal', 'SELECT fps AS `TRUE` FROM events', /spelling of a literal/],
    [
      'a WITH expression reading another table',
      'WITH (SELECT count() FROM system.one) AS n SELECT n FROM events',
      /not available/,
    ],
    ['a WITH expression name used as a table', 'WITH 1 AS x SELECT * FROM x', /not available/],
    ['a WITH expression without a name', 'WITH 5 SELECT 1 FROM events', /needs a name/],
    ['a forbidden function in a WITH expression', 'WITH sleep(3) AS s SELECT s FROM events', /sleep is not allowed/],
    ['a clause inside the WITH list', 'WITH 1 AS x FROM events SELECT x FROM events', /only named expressions/],
    [
      'a WITH alias spelled like a literal',
      'WITH 1 AS `true` SELECT 0 IN (true) FROM events',
      /spelling of a literal|true\/false/,
    ],
    ['a column alias with a dot', 'SELECT 1 AS `framedeck.events` FROM events', /contains a dot/],
    ['a table alias with a dot', 'SELECT 1 FROM events AS `system.one`', /contains a dot/],
    [
      'a JOIN after an ARRAY JOIN list',
      'SELECT 1 FROM events ARRAY JOIN attributes.key AS a, events LEFT JOIN events AS x USING (event_id)',
      /cannot follow/,
    ],
    ['a tuple element of a table name in FROM', 'SELECT 1 FROM events.1', /not available/],
    ['a tuple element in IN (…)', 'SELECT 0 IN (t.1) FROM events', /not a table or column name/],
    [
      'a WITH name that looks qualified',
      'WITH `system.one` AS (SELECT 1) SELECT * FROM `system.one`',
      /plain identifier|contains a dot/,
    ],
    ['WITH RECURSIVE', 'WITH RECURSIVE x AS (SELECT 1 UNION ALL SELECT 1 FROM x) SELECT * FROM x', /RECURSIVE/],
    ['IN (table name)', 'SELECT 1 FROM events WHERE 0 IN (system.one)', /IN \(…\) takes values/],
    ['IN ((table name))', 'SELECT 1 FROM events WHERE 0 IN ((system.one))', /IN \(…\) takes values/],
    ['IN table name', 'SELECT 1 FROM events WHERE 0 IN system.one', /Syntax error/],
    ['a table function', 'SELECT * FROM numbers(10)', /Table functions such as numbers/],
    [
      'a table function in a join',
      "SELECT * FROM events JOIN url('http://x', CSV, 'a String') AS u ON 1 = 1",
      /Table functions such as url/,
    ],
    [
      'a dictionary function',
      "SELECT dictGetString('d', 'a', toUInt64(1)) FROM events",
      /Function dictGetString is not allowed/,
    ],
    ['joinGet', "SELECT joinGet('framedeck.events', 'player_id', 1)", /Function joinGet is not allowed/],
    ['currentDatabase()', 'SELECT currentDatabase()', /Function currentDatabase is not allowed/],
    ['a qualified function name', 'SELECT system.hostName()', /Function system\.hostName is not allowed/],
    ['the in() function', 'SELECT in(0, system.one)', /Function in is not allowed/],
    [
      'a forbidden function in ARRAY JOIN',
      'SELECT 1 FROM events ARRAY JOIN dictGetString(1) AS x',
      /Function dictGetString is not allowed/,
    ],
    ['SETTINGS', 'SELECT 1 FROM events SETTINGS max_execution_time = 1000', /SETTINGS clauses are not allowed/],
    ['FORMAT', 'SELECT 1 FROM events FORMAT TabSeparated', /FORMAT clauses are not allowed/],
    ['INTO OUTFILE', "SELECT 1 FROM events INTO OUTFILE '/tmp/x'", /Syntax error/],
    ['SELECT INTO', 'SELECT * INTO copy FROM events', /INTO clauses are not allowed/],
    ['two statements', 'SELECT 1; SELECT 2', /Only one statement/],
    ['DROP', 'DROP TABLE events', /Only SELECT queries are allowed \(found a DROP statement\)/],
    ['INSERT', 'INSERT INTO events SELECT * FROM events', /Only SELECT queries are allowed/],
    ['SHOW', 'SHOW TABLES', /Only SELECT queries are allowed/],
    ['SET', 'SET readonly = 0', /Only SELECT queries are allowed/],
    ['EXPLAIN', 'EXPLAIN SELECT 1', /Only SELECT queries are allowed/],
    ['a table in an INTERSECT branch', 'SELECT 1 FROM events INTERSECT SELECT 1 FROM system.one', /system\.one/],
    [
      'a table in a GLOBAL IN subquery',
      'SELECT 1 FROM events WHERE 1 GLOBAL IN (SELECT 1 FROM system.one)',
      /system\.one/,
    ],
    ['GLOBAL IN (table name)', 'SELECT 1 FROM events WHERE 0 GLOBAL IN (system.one)', /IN \(…\) takes values/],
    [
      'a WITH expression reading another table beside a table expression',
      'WITH t AS (SELECT 1 FROM events), (SELECT count() FROM system.one) AS n SELECT n FROM t',
      /system\.one is not available/,
    ],
    [
      'a WITH expression reading a table expression defined after it',
      'WITH (SELECT count() FROM u) AS n, u AS (SELECT 1) SELECT n FROM events',
      /Table u is not available/,
    ],
    [
      'a nested WITH expression reading another table',
      'SELECT * FROM (WITH (SELECT 1 FROM system.one) AS k SELECT k FROM events)',
      /system\.one is not available/,
    ],
    ['a ternary hiding IN (table)', 'SELECT fps > 1 ? 0 IN (system.one) : 1 FROM events', /IN \(…\) takes values/],
    [
      'a subquery in a tuple element',
      'SELECT (SELECT tuple(1) FROM system.one).1 FROM events',
      /system\.one is not available/,
    ],
    ['a table in a map key', "SELECT attributes[(SELECT 'k' FROM system.one)] FROM events", /system\.one/],
    [
      'a table in a nested map key',
      "SELECT metrics[attributes[(SELECT 'k' FROM system.one)]] FROM events",
      /system\.one/,
    ],
    ['a table named in a map key IN', 'SELECT attributes[0 IN (system.one)] FROM events', /IN \(…\) takes values/],
    ['an E-string', "SELECT E'\\x41' FROM events", /quoting|Syntax error/],
    ['an empty query', '  -- nothing\n', /empty/],
    ['deep nesting', `SELECT ${'('.repeat(300)}1${')'.repeat(300)}`, /Syntax error/],
  ])('%s', (_name, sql, message) => {
    expect(rejection(sql)).toMatch(message);
  });

  it.each([
    ['in the query holding its WITH only', 'SELECT currentDatabase(1) FROM (WITH x -> x AS currentDatabase SELECT 1)'],
    ['not in a later UNION branch', 'WITH x -> x AS hostName SELECT 1 UNION ALL SELECT hostName(1) FROM events'],
    ['not in its own definition', 'WITH x -> sleep(x) AS sleep SELECT 1 FROM events'],
    ['not before its definition', 'WITH currentUser(1) AS u, x -> x AS currentUser SELECT u FROM events'],
    ['only for lambdas', 'WITH 2 AS version SELECT version(1) FROM events'],
  ])('a WITH lambda is called by name %s', (_name, sql) => {
    expect(() => checkAnalystQuery(sql, { lambdaCallsByName: true })).toThrow(/is not allowed/);
  });

  it.each([
    ['a WITH lambda reading another table', 'WITH x -> (SELECT count() FROM system.one) AS f SELECT f(1) FROM events'],
    ['COLUMNS over a system table', "SELECT COLUMNS('.*') FROM system.tables"],
    ['a bare USING list going on with another table', 'SELECT 1 FROM events AS a JOIN events AS b USING x, system.one'],
    [
      'a bare USING list with a subquery over another table',
      'SELECT 1 FROM events AS a JOIN events AS b USING x, (SELECT 1 FROM system.one)',
    ],
    ['a GROUP BY alias over another table', 'SELECT n FROM events GROUP BY (SELECT count() FROM system.one) AS n'],
    ['DIV hiding a subquery over another table', 'SELECT fps DIV (SELECT count() FROM system.one) FROM events'],
  ])('%s', (_name, sql) => {
    expect(() => checkAnalystQuery(sql, { lambdaCallsByName: true })).toThrow(/system\.(one|tables) is not available/);
  });

  it.each([
    ['spelled like a literal', 'SELECT 0 IN (1) FROM events GROUP BY fps AS `true`', /spelling of a literal/],
    ['with a dot', 'SELECT count() FROM events GROUP BY fps AS `system.one`', /contains a dot/],
  ])('a GROUP BY alias %s', (_name, sql, message) => {
    expect(rejection(sql)).toMatch(message);
  });

  it('a table alias spelled div/mod (read as the operator: the parser then refuses the text)', () => {
    expect(rejection('SELECT 1 FROM events div')).toMatch(/Syntax error/);
  });

  it('refuses a string the parser reads differently from ClickHouse (the quoted-token cross-check)', () => {
    // sqlparser reads X'41' as one hex literal; ClickHouse's lexer as the name X and a string.
    expect(rejection("SELECT X'41' FROM events")).toMatch(/cannot verify/);
  });

  it('refuses a query whose strings the parser would split differently from ClickHouse', () => {
    // sqlparser reads `"a\"b"` as ending at the second quote; ClickHouse as one name.
    expect(rejection('SELECT "a\\" FROM system.one --" FROM events')).toBeDefined();
  });
});

describe('checkAnalystQuery on random token soup', () => {
  it('either accepts or refuses with a SqlRejection, never fails otherwise, and never reads a foreign table', () => {
    const vocabulary = [
      ...['SELECT', 'FROM', 'events', 'system.one', 'framedeck.events', '(', ')', ',', "'a'", "'\\''", "''"],
      ...['\\', '"x"', '`y`', '--', '/*', '*/', '\n', '#', '$$', ';', 'WITH', 'x', 'AS', 'UNION', 'ALL', 'JOIN'],
      ...['ON', 'IN', 'ARRAY', 'count()', 'arrayJoin(', 'numbers(1)', '1', '1e309', '-', '*', '/', '=', '.', '['],
      ...[']', '{', '}', '?', ':', '->', 'é', 'SETTINGS', 'FORMAT', 'INTO', 'LIMIT', 'BY', 'FINAL', "X'41'", '::'],
      ...['DIV', 'MOD', 'USING', 'GROUP BY', "COLUMNS('.*')"],
    ];
    let seed = 20260321;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let accepted = 0;
    for (let i = 0; i < 3_000; i++) {
      const words = Array.from(
        { length: 1 + Math.floor(random() * 20) },
        () => vocabulary[Math.floor(random() * vocabulary.length)],
      );
      const sql = ['SELECT', ...words].join(random() < 0.5 ? ' ' : '');
      let text: string | undefined;
      try {
        text = checkAnalystQuery(sql).text;
      } catch (error) {
        expect(error, sql).toBeInstanceOf(SqlRejection);
        continue;
      }
      accepted += 1;
      // Accepted text may mention those names as columns (ClickHouse then says "unknown"), never as a table.
      expect(text, sql).not.toMatch(/(FROM|JOIN)\s*(system\.one|framedeck\.events|numbers\()/i);
    }
    expect(accepted).toBeGreaterThan(0);
    expect(checkAnalystQuery('SELECT count() FROM events').text).toBe('SELECT count() FROM events'); // parser still sound
  }, 30_000); // 3,000 checks: some 3 s alone, more beside other test runs on a 2-core machine
});
