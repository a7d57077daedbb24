import type { Queryable } from './queryable.js';

export type ContentEntry = {
  type: string;
  key: string;
  displayName: string;
  metadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
};

const ENTRY_COLUMNS = `type, key, display_name AS "displayName", metadata, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Creates or replaces (type, key) in the project; `created` tells which. */
export async function upsertContentEntry(
  db: Queryable,
  projectId: string,
  entry: { type: string; key: string; displayName: string; metadata: Record<string, unknown> },
): Promise<{ entry: ContentEntry; created: boolean }> {
  const { rows } = await db.query<ContentEntry & { created: boolean }>(
    `INSERT INTO content_entries (project_id, type, key, display_name, metadata)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (project_id, type, key) DO UPDATE SET
       display_name = EXCLUDED.display_name, metadata = EXCLUDED.metadata, updated_at = clock_timestamp()
     RETURNING ${ENTRY_COLUMNS}, (xmax = 0) AS created`,
    [projectId, entry.type, entry.key, entry.displayName, JSON.stringify(entry.metadata)],
  );
  const { created, ...saved } = rows[0]!;
  return { entry: saved, created };
}

/** Entries of a project, optionally of one type, ordered by type then key. */
export async function listContentEntries(
  db: Queryable,
  projectId: string,
  filter: { type?: string | undefined; keys?: readonly string[] | undefined } = {},
): Promise<ContentEntry[]> {
  const { rows } = await db.query<ContentEntry>(
    `SELECT ${ENTRY_COLUMNS} FROM content_entries
      WHERE project_id = $1 AND ($2::text IS NULL OR type = $2) AND ($3::text[] IS NULL OR key = ANY($3))
      ORDER BY type, key`,
    [projectId, filter.type ?? null, filter.keys ?? null],
  );
  return rows;
}

export async function deleteContentEntry(
  db: Queryable,
  projectId: string,
  type: string,
  key: string,
): Promise<boolean> {
  const result = await db.query(`DELETE FROM content_entries WHERE project_id = $1 AND type = $2 AND key = $3`, [
    projectId,
    type,
    key,
  ]);
  return result.rowCount === 1;
}
