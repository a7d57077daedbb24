import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClickHouseWriter, identifier, sql } from '@framedeck/clickhouse';
import { ProjectDatabases } from '@framedeck/sql-sandbox';
import { testConfig } from '../support/stack.js';
import { CLICKHOUSE_ENGINE, REPO_ROOT } from '../support/config.js';
import { dropProjectDatabases } from './sql-fixture.js';

/**
 * docs/sql-console.md lists the columns analysts can query. The list (between its
 * `columns:begin` / `columns:end` markers) must be exactly what `DESCRIBE TABLE` of a real
 * project view says, in order, with the types ClickHouse reports, on the engine under test.
 */
const admin = createClickHouseWriter(testConfig.clickhouse);
const projectId = randomUUID();

afterAll(async () => {
  await dropProjectDatabases(admin, [projectId]);
  await admin.close();
});

/** `[name, type]` of each row of the documented table. */
function documentedColumns(markdown: string): [string, string][] {
  const section = /<!-- columns:begin -->([\s\S]*?)<!-- columns:end -->/.exec(markdown)?.[1];
  if (!section) throw new Error('docs/sql-console.md has no <!-- columns:begin --> … <!-- columns:end --> section');
  return [...section.matchAll(/^\| `([^`]+)` +\| `([^`]+)` +\|/gm)].map((m) => [m[1]!, m[2]!]);
}

describe(`the SQL console's column reference (${CLICKHOUSE_ENGINE} engine)`, () => {
  it('lists exactly the columns and types of the events view, in order', async () => {
    const databases = new ProjectDatabases(admin, testConfig.clickhouse.database, testConfig.clickhouse.sandbox);
    const { database } = await databases.ensure(projectId);
    const described = await admin.rows<{ name: string; type: string }>(
      sql`DESCRIBE TABLE ${identifier(database)}.events`,
    );
    const documented = documentedColumns(await readFile(join(REPO_ROOT, 'docs/sql-console.md'), 'utf8'));
    expect(documented.length).toBeGreaterThan(20);
    expect(documented).toEqual(described.map((c) => [c.name, c.type]));
  });
});
