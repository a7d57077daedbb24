/**
 * Queries an attacker (or a careless analyst) might send, each with what the refusal must
 * say. Every one must end in a 400 carrying a useful message, and nothing of another project
 * or of another table may come back. `where` says which wall stops it: the sandbox's own
 * check ('check') or ClickHouse inside the sandbox ('clickhouse': limits, unknown names).
 */
export type HostileQuery = { name: string; sql: string; message: RegExp; where: 'check' | 'clickhouse' };

export type HostileContext = {
  /** Database of the shared events table (framedeck_test in tests). */
  sharedDatabase: string;
  /** Another project's sandbox database (fd_p_…), which exists. */
  otherDatabase: string;
  otherProjectId: string;
};

/** 18.16 says "Unknown identifier: project_id"; modern servers "Unknown expression (or function) identifier `project_id`". */
const UNKNOWN_PROJECT_ID = /Unknown (expression (or function )?)?identifier:? `?project_id/;

const notAvailable = (table: string) => new RegExp(`Table ${table.replace(/\./g, '\\.')} is not available`);

export function hostileQueries({ sharedDatabase: db, otherDatabase, otherProjectId }: HostileContext): HostileQuery[] {
  const check = (name: string, sql: string, message: RegExp): HostileQuery => ({ name, sql, message, where: 'check' });
  const server = (name: string, sql: string, message: RegExp): HostileQuery => ({
    name,
    sql,
    message,
    where: 'clickhouse',
  });
  return [
    // ---- other projects' rows, other tables, qualified names ----
    check('the shared table by its qualified name', `SELECT * FROM ${db}.events`, notAvailable(`${db}.events`)),
    check('the production database', 'SELECT * FROM framedeck.events', notAvailable('framedeck.events')),
    check('back-quoted qualified name', `SELECT count() FROM \`${db}\`.\`events\``, notAvailable(`${db}.events`)),
    check('double-quoted qualified name', `SELECT count() FROM "${db}"."events"`, notAvailable(`${db}.events`)),
    check('qualified name with spaces', `SELECT count() FROM ${db} . events`, notAvailable(`${db}.events`)),
    check(
      'another project’s database',
      `SELECT * FROM ${otherDatabase}.events`,
      notAvailable(`${otherDatabase}.events`),
    ),
    check('system.tables', 'SELECT * FROM system.tables', notAvailable('system.tables')),
    check('system.query_log', 'SELECT query FROM system.query_log', notAvailable('system.query_log')),
    check('system.databases', 'SELECT name FROM system.databases', notAvailable('system.databases')),
    check('system.columns', 'SELECT * FROM system.columns', notAvailable('system.columns')),
    check('system.processes', 'SELECT query FROM system.processes', notAvailable('system.processes')),
    check('system.numbers', 'SELECT number FROM system.numbers LIMIT 10', notAvailable('system.numbers')),
    check('default database', 'SELECT * FROM default.events', notAvailable('default.events')),
    check('migration bookkeeping', `SELECT * FROM ${db}.schema_migrations`, notAvailable(`${db}.schema_migrations`)),
    check('rejection counters', `SELECT * FROM ${db}.event_rejections`, notAvailable(`${db}.event_rejections`)),
    check('unqualified rejection counters', 'SELECT * FROM event_rejections', notAvailable('event_rejections')),
    check('unqualified bookkeeping', 'SELECT * FROM schema_migrations', notAvailable('schema_migrations')),
    check('case variant of the view', 'SELECT * FROM EVENTS', notAvailable('EVENTS')),
    server('the hidden project column', 'SELECT project_id FROM events', UNKNOWN_PROJECT_ID),
    server(
      'filtering on another project id',
      `SELECT count() FROM events WHERE project_id = '${otherProjectId}'`,
      UNKNOWN_PROJECT_ID,
    ),
    // ---- subqueries, joins, IN, WITH reaching the raw table ----
    check('comma join', `SELECT * FROM events AS e, ${db}.events AS raw`, notAvailable(`${db}.events`)),
    check(
      'join',
      `SELECT * FROM events AS e JOIN ${db}.events AS r ON e.event_id = r.event_id`,
      notAvailable(`${db}.events`),
    ),
    check(
      'left join to system',
      'SELECT * FROM events AS e LEFT JOIN system.one AS o ON 1 = 1',
      notAvailable('system.one'),
    ),
    check(
      'IN subquery',
      `SELECT * FROM events WHERE player_id IN (SELECT player_id FROM ${db}.events)`,
      notAvailable(`${db}.events`),
    ),
    check('scalar subquery', 'SELECT (SELECT count() FROM system.tables) AS n', notAvailable('system.tables')),
    check('derived table', `SELECT * FROM (SELECT * FROM ${db}.events)`, notAvailable(`${db}.events`)),
    check(
      'nested derived tables',
      `SELECT * FROM (SELECT * FROM (SELECT * FROM system.one))`,
      notAvailable('system.one'),
    ),
    check(
      'UNION ALL branch',
      `SELECT event_name FROM events UNION ALL SELECT event_name FROM ${db}.events`,
      notAvailable(`${db}.events`),
    ),
    check(
      'WITH shadowing events',
      `WITH events AS (SELECT * FROM ${db}.events) SELECT * FROM events`,
      notAvailable(`${db}.events`),
    ),
    check('WITH reading itself', 'WITH x AS (SELECT * FROM x) SELECT * FROM x', notAvailable('x')),
    check(
      'WITH over a system table',
      'WITH t AS (SELECT * FROM system.tables) SELECT name FROM t',
      notAvailable('system.tables'),
    ),
    check('WITH name out of scope', 'SELECT * FROM (WITH x AS (SELECT 1) SELECT * FROM x) AS y, x', notAvailable('x')),
    check(
      'IN (table name)',
      'SELECT count() FROM events WHERE 0 IN (system.one)',
      /IN \(…\) takes values or a subquery/,
    ),
    check(
      'IN ((table name))',
      `SELECT count() FROM events WHERE player_id IN ((${db}.events))`,
      /IN \(…\) takes values/,
    ),
    check('IN bare table name', 'SELECT count() FROM events WHERE 0 IN system.one', /Syntax error/),
    check(
      'EXISTS over another table',
      'SELECT count() FROM events WHERE EXISTS (SELECT 1 FROM system.one)',
      notAvailable('system.one'),
    ),
    server(
      'ARRAY JOIN of a table name',
      'SELECT count() FROM events ARRAY JOIN system.one',
      /No columns in nested table|Unknown identifier|Unknown (expression or table )?(expression )?identifier/,
    ),
    // ---- table functions ----
    check('numbers()', 'SELECT * FROM numbers(10)', /Table functions such as numbers/),
    check('file()', "SELECT * FROM file('/etc/passwd', 'CSV', 'line String')", /Table functions such as file/),
    check(
      'url()',
      "SELECT * FROM url('http://127.0.0.1:8123/?query=SELECT%201', CSV, 'x String')",
      /Table functions such as url/,
    ),
    check('mysql()', "SELECT * FROM mysql('127.0.0.1:3306', 'db', 't', 'u', 'p')", /Table functions such as mysql/),
    check('jdbc()', "SELECT * FROM jdbc('jdbc:x', 't')", /Table functions such as jdbc/),
    check('odbc()', "SELECT * FROM odbc('DSN=x', 't')", /Table functions such as odbc/),
    check('remote()', `SELECT * FROM remote('127.0.0.1', ${db}, events)`, /Table functions such as remote/),
    check(
      'remoteSecure()',
      "SELECT * FROM remoteSecure('127.0.0.1', system.one)",
      /Table functions such as remoteSecure/,
    ),
    check('cluster()', "SELECT * FROM cluster('local', system.one)", /Table functions such as cluster/),
    check('merge()', `SELECT * FROM merge('${db}', '^events$')`, /Table functions such as merge/),
    check('zeros()', 'SELECT * FROM zeros(100)', /Table functions such as zeros/),
    check('generateRandom()', "SELECT * FROM generateRandom('a UInt8')", /Table functions such as generateRandom/),
    check('s3()', "SELECT * FROM s3('http://x/y', 'CSV', 'a String')", /Table functions such as s3/),
    check('hdfs()', "SELECT * FROM hdfs('hdfs://x/y', 'CSV', 'a String')", /Table functions such as hdfs/),
    check('dictionary()', "SELECT * FROM dictionary('d')", /Table functions such as dictionary/),
    check(
      'table function in a join',
      'SELECT * FROM events JOIN numbers(10) AS n ON 1 = 1',
      /Table functions such as numbers/,
    ),
    check(
      'table function in a subquery',
      'SELECT count() FROM (SELECT * FROM numbers(1000000000))',
      /Table functions such as numbers/,
    ),
    // ---- SETTINGS, FORMAT, INTO OUTFILE ----
    check(
      'SETTINGS lifting a limit',
      'SELECT count() FROM events SETTINGS max_execution_time = 100000',
      /SETTINGS clauses are not allowed/,
    ),
    check('SETTINGS readonly', 'SELECT count() FROM events SETTINGS readonly = 0', /SETTINGS clauses are not allowed/),
    check('FORMAT', 'SELECT * FROM events FORMAT TabSeparated', /FORMAT clauses are not allowed/),
    check('INTO OUTFILE', "SELECT * FROM events INTO OUTFILE '/tmp/leak.csv'", /Syntax error/),
    check('SELECT INTO', 'SELECT * INTO copy FROM events', /INTO clauses are not allowed/),
    // ---- several statements, other statements ----
    check('second statement', 'SELECT 1 FROM events; SELECT * FROM system.tables', /Only one statement/),
    check('statement after a comment', 'SELECT 1 FROM events; -- x\nDROP TABLE events', /Only one statement/),
    check('DROP', 'DROP TABLE events', /Only SELECT queries are allowed/),
    check('INSERT', 'INSERT INTO events SELECT * FROM events', /Only SELECT queries are allowed/),
    check('ALTER DELETE', 'ALTER TABLE events DELETE WHERE 1 = 1', /Only SELECT queries are allowed|Syntax error/),
    check('SHOW TABLES', 'SHOW TABLES', /Only SELECT queries are allowed/),
    check('DESCRIBE', `DESCRIBE TABLE ${db}.events`, /Only SELECT queries are allowed/),
    check('SET', 'SET readonly = 0', /Only SELECT queries are allowed/),
    check('KILL QUERY', 'KILL QUERY WHERE 1 = 1', /Only SELECT queries are allowed|Syntax error/),
    check('OPTIMIZE', 'OPTIMIZE TABLE events FINAL', /Only SELECT queries are allowed|Syntax error/),
    check('CREATE', 'CREATE TABLE x (a UInt8) ENGINE = Memory', /Only SELECT queries are allowed/),
    check('EXPLAIN', 'EXPLAIN SELECT * FROM events', /Only SELECT queries are allowed/),
    // ---- comment and quoting tricks ----
    check(
      'nested comment hiding a table',
      'SELECT count() FROM events /* /* */ , system.one */',
      /Nested \/\* comments/,
    ),
    check('# comment', 'SELECT count() FROM events # , system.one', /'#' is not allowed/),
    check(
      'line comment then a UNION',
      'SELECT 1 FROM events -- x\nUNION ALL SELECT 1 FROM system.one',
      notAvailable('system.one'),
    ),
    check('escaped quote hiding a table', "SELECT 'x\\'', name FROM system.tables --'", notAvailable('system.tables')),
    check('doubled quotes hiding a table', "SELECT 'x''', name FROM system.tables --'", notAvailable('system.tables')),
    check(
      'escaped backslash before a table',
      "SELECT '\\\\' AS a, name FROM system.tables",
      notAvailable('system.tables'),
    ),
    check(
      'backslash-quote in a double-quoted name',
      'SELECT "a\\" FROM system.one --" FROM events',
      /backslash is not allowed/,
    ),
    check('quoted system table', 'SELECT * FROM "system"."tables"', notAvailable('system.tables')),
    check('dollar-quoted string', 'SELECT $$x$$ FROM events', /'\$' is not allowed/),
    check('full-width semicolon', 'SELECT 1 FROM events；SELECT * FROM system.tables', /Non-ASCII/),
    check('look-alike dot', 'SELECT * FROM system\u2024tables', /Non-ASCII/),
    check('no-break space', 'SELECT\u00a0*\u00a0FROM system.tables', /Non-ASCII/),
    check('NUL byte', 'SELECT 1 FROM events\u0000; SELECT * FROM system.tables', /control character/),
    check('backslash outside strings', 'SELECT 1 FROM events \\; SELECT 2', /backslash is only allowed/),
    check('E-string', "SELECT E'\\x41' FROM events", /quot|Syntax error/),
    // ---- dictionaries, introspection, dangerous functions ----
    check('dictGetString', "SELECT dictGetString('d', 'a', toUInt64(1))", /Function dictGetString is not allowed/),
    check('dictGet', "SELECT dictGet('d', 'a', toUInt64(1))", /Function dictGet is not allowed/),
    check('joinGet', `SELECT joinGet('${db}.events', 'player_id', 1)`, /Function joinGet is not allowed/),
    check(
      'hasColumnInTable',
      "SELECT hasColumnInTable('system', 'tables', 'name')",
      /Function hasColumnInTable is not allowed/,
    ),
    check('currentDatabase', 'SELECT currentDatabase()', /Function currentDatabase is not allowed/),
    check('currentUser', 'SELECT currentUser()', /Function currentUser is not allowed/),
    check('hostName', 'SELECT hostName()', /Function hostName is not allowed/),
    check('version', 'SELECT version()', /Function version is not allowed/),
    check('getSetting', "SELECT getSetting('max_memory_usage')", /Function getSetting is not allowed/),
    check('in() as a function', 'SELECT in(0, system.one)', /Function in is not allowed/),
    check('sleepEachRow', 'SELECT sleepEachRow(3) FROM events', /Function sleepEachRow is not allowed/),
    check(
      'function hidden in a lambda',
      "SELECT arrayMap(x -> dictGetString('d', 'a', x), [toUInt64(1)])",
      /dictGetString is not allowed/,
    ),
    // ---- resource bombs ----
    server(
      'huge arrayJoin',
      'SELECT count() FROM events ARRAY JOIN range(1000000000) AS x',
      /greater than the allowed maximum|Memory limit/,
    ),
    server(
      'range(1e8) sorted',
      'SELECT arrayJoin(range(100000000)) AS x ORDER BY x DESC LIMIT 1',
      /[Mm]emory limit|Limit for/,
    ),
    server(
      'cross join explosion',
      'SELECT count() FROM (SELECT arrayJoin(range(100000)) AS a FROM events) AS l CROSS JOIN (SELECT arrayJoin(range(100000)) AS b FROM events) AS r',
      /[Mm]emory limit|Limit for JOIN|Limit for rows|Timeout exceeded/,
    ),
    check(
      'deeply nested expression',
      `SELECT ${'('.repeat(500)}1${')'.repeat(500)} FROM events`,
      /Syntax error.*recursion/i,
    ),
    check(
      'deeply nested subqueries',
      `SELECT * FROM ${'(SELECT * FROM '.repeat(60)}events${') AS t'.repeat(60)}`,
      /Syntax error.*recursion/i,
    ),
    // ---- literal/identifier confusion: 18.16 reads true/false as names and substitutes aliases into IN ----
    check(
      'IN (true) with an alias `true` naming a table (probes which tables exist on 18.16)',
      `SELECT 0 IN (true) AS r, ${db}.nope AS \`true\` FROM (SELECT 1 AS \`${db}.nope\`)`,
      /does not take true\/false/,
    ),
    check(
      'IN (true) with an alias naming another project’s view',
      `SELECT 0 IN (true) AS r, ${otherDatabase}.events AS \`true\` FROM events`,
      /does not take true\/false/,
    ),
    check(
      'IN ((false)), nested',
      `SELECT 1 IN ((false)) AS r, ${db}.events AS \`false\` FROM events`,
      /true\/false|literal/,
    ),
    check('an alias spelled like a literal', 'SELECT event_name AS `true` FROM events', /spelling of a literal/),
    check(
      'a column alias that looks like a qualified table',
      `SELECT x FROM (SELECT 1 AS \`${db}.events\`, 2 AS x FROM events)`,
      /contains a dot/,
    ),
    check('a tuple element in IN (…)', `SELECT 0 IN (${db}.1) FROM events`, /not a table or column name/),
    check(
      'recursive WITH',
      'WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT * FROM r',
      /RECURSIVE/,
    ),
    // ---- map access (rewritten to the Nested arrays, then checked): tables hidden in keys ----
    check(
      'a subquery of another table as a map key',
      `SELECT attributes[(SELECT any(player_id) FROM ${db}.events)] FROM events`,
      notAvailable(`${db}.events`),
    ),
    check(
      'a table hidden in a nested subscript',
      'SELECT metrics[attributes[(SELECT name FROM system.tables LIMIT 1)]] FROM events',
      notAvailable('system.tables'),
    ),
    check('IN (table) inside a map key', `SELECT attributes[0 IN (${db}.events)] FROM events`, /IN \(…\) takes values/),
    check(
      'a map key closing its bracket inside a string, then a table',
      `SELECT attributes[']'] FROM events UNION ALL SELECT 1 FROM ${otherDatabase}.events`,
      notAvailable(`${otherDatabase}.events`),
    ),
    check(
      'a subscript written inside a quoted name (not rewritten: still the parser’s)',
      `SELECT \`attributes['x']\` FROM ${db}.events`,
      notAvailable(`${db}.events`),
    ),
    check(
      'map access on a qualified table name',
      `SELECT count() FROM ${db}.events WHERE ${db}.events.attributes['k'] = ''`,
      notAvailable(`${db}.events`),
    ),
    check(
      'a map key with a forbidden function',
      "SELECT metrics[dictGetString('d', 'a', toUInt64(1))] FROM events",
      /dictGetString is not allowed/,
    ),
    // ---- the ClickHouse forms read through same-length rewrites: nothing hides behind them ----
    check(
      'GLOBAL IN over another table',
      `SELECT count() FROM events WHERE player_id GLOBAL IN (SELECT player_id FROM ${db}.events)`,
      notAvailable(`${db}.events`),
    ),
    check(
      'GLOBAL IN (table name)',
      `SELECT count() FROM events WHERE 0 GLOBAL NOT IN (${db}.events)`,
      /IN \(…\) takes values/,
    ),
    check(
      'a ternary hiding IN (table)',
      `SELECT fps > 1 ? 0 IN (${otherDatabase}.events) : 1 FROM events`,
      /IN \(…\) takes values/,
    ),
    check(
      'a tuple element of a subquery over another table',
      `SELECT (SELECT tuple(count()) FROM ${otherDatabase}.events).1 FROM events`,
      notAvailable(`${otherDatabase}.events`),
    ),
    check(
      'a WITH expression beside a table expression, reading another table',
      `WITH t AS (SELECT 1 FROM events), (SELECT count() FROM ${db}.events) AS n SELECT n FROM t`,
      notAvailable(`${db}.events`),
    ),
    check(
      'a WITH expression reading a table expression defined after it',
      'WITH (SELECT count() FROM later) AS n, later AS (SELECT 1) SELECT n FROM events',
      notAvailable('later'),
    ),
    check(
      'an ARRAY JOIN array literal holding a subquery of another table',
      `SELECT x FROM events ARRAY JOIN [(SELECT count() FROM ${db}.events)] AS x`,
      notAvailable(`${db}.events`),
    ),
    check(
      'LIMIT … BY then a UNION branch over another table',
      `SELECT player_id FROM events LIMIT 1 BY player_id LIMIT 5 UNION ALL SELECT player_id FROM ${db}.events`,
      /Syntax error|is not available/,
    ),
    check(
      'an INTERSECT branch over another table',
      `SELECT player_id FROM events INTERSECT SELECT player_id FROM ${otherDatabase}.events`,
      notAvailable(`${otherDatabase}.events`),
    ),
    // ---- bare USING, GROUP BY aliases, WITH lambdas by name, COLUMNS, DIV/MOD ----
    check(
      'a bare USING list going on with another table',
      `SELECT count() FROM events AS a JOIN events AS b USING event_id, ${db}.events`,
      notAvailable(`${db}.events`),
    ),
    check(
      'a bare USING list with a subquery over another table',
      `SELECT count() FROM events AS a JOIN events AS b USING event_id, (SELECT count() FROM ${otherDatabase}.events)`,
      notAvailable(`${otherDatabase}.events`),
    ),
    check(
      'a GROUP BY alias spelled like a literal, substituted into IN (18.16)',
      `SELECT 0 IN (true) FROM events GROUP BY ${db}.nope AS \`true\``,
      /does not take true\/false|spelling of a literal/,
    ),
    check('a GROUP BY alias with a dot', 'SELECT count() FROM events GROUP BY fps AS `system.one`', /contains a dot/),
    check(
      'a GROUP BY alias over another table',
      `SELECT n FROM events GROUP BY (SELECT count() FROM ${db}.events) AS n`,
      notAvailable(`${db}.events`),
    ),
    check(
      'a WITH lambda whose body reads another table',
      `WITH x -> (SELECT count() FROM ${otherDatabase}.events) + x AS f SELECT f(fps) FROM events`,
      notAvailable(`${otherDatabase}.events`),
    ),
    check(
      'a WITH lambda called over a system table',
      'WITH x -> x AS f SELECT f(name) FROM system.tables',
      // 18.16 (lambda calls refused) stops at the call, before it reaches FROM.
      /Table system\.tables is not available|Function f is not allowed/,
    ),
    check(
      'a lambda named like a refused function, called outside the query that defines it',
      'SELECT currentDatabase(1) FROM (WITH x -> x AS currentDatabase SELECT 1)',
      /Function currentDatabase is not allowed/,
    ),
    check(
      'a lambda named like a refused function, called in its own definition',
      'WITH x -> hostName(x) AS hostName SELECT 1 FROM events',
      /Function hostName is not allowed/,
    ),
    check(
      'a lambda named like a refused function, called in a later UNION branch',
      'WITH x -> x AS currentUser SELECT 1 FROM events UNION ALL SELECT currentUser(1) FROM events',
      /Function currentUser is not allowed/,
    ),
    check('COLUMNS over a system table', "SELECT COLUMNS('.*') FROM system.tables", notAvailable('system.tables')),
    check(
      'COLUMNS over another project',
      `SELECT COLUMNS('.*') FROM ${otherDatabase}.events`,
      notAvailable(`${otherDatabase}.events`),
    ),
    check(
      'COLUMNS in a subquery over a system table',
      "SELECT * FROM (SELECT COLUMNS('name') FROM system.databases)",
      notAvailable('system.databases'),
    ),
    check(
      'DIV hiding a subquery over another table',
      `SELECT fps DIV (SELECT count() FROM ${db}.events) FROM events`,
      notAvailable(`${db}.events`),
    ),
    check('MOD as a table alias beside a system table', 'SELECT 1 FROM events mod, system.one', /Syntax error/),
  ];
}
