import type { Queryable } from './queryable.js';

export type ContentEntry = {
  id: string;
  type: string;
  key: string;
  displayName: string;
  description: string | null;
  category: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
};

/** What an entry is written with; (type, key) is its natural key in the project. */
export type ContentEntryInput = Pick<ContentEntry, 'type' | 'key' | 'displayName' | 'metadata'> & {
  description?: string | null | undefined;
  category?: string | null | undefined;
};

const ENTRY_COLUMNS = `id, type, key, display_name AS "displayName", description, category, metadata,
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Creates or replaces (type, key) in the project; `created` tells which. */
export async function upsertContentEntry(
  db: Queryable,
  projectId: string,
  entry: ContentEntryInput,
): Promise<{ entry: ContentEntry; created: boolean }> {
  const { rows } = await db.query<ContentEntry & { created: boolean }>(
    `INSERT INTO content_entries (project_id, type, key, display_name, description, category, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (project_id, type, key) DO UPDATE SET
       display_name = EXCLUDED.display_name, description = EXCLUDED.description, category = EXCLUDED.category,
       metadata = EXCLUDED.metadata, updated_at = clock_timestamp()
     RETURNING ${ENTRY_COLUMNS}, (xmax = 0) AS created`,
    [
      projectId,
      entry.type,
      entry.key,
      entry.displayName,
      entry.description ?? null,
      entry.category ?? null,
      JSON.stringify(entry.metadata),
    ],
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

/** Deletes one entry, named by its id or by its (type, key); the deleted entry, if there was one. */
export async function deleteContentEntry(
  db: Queryable,
  projectId: string,
  which: { id: string } | { type: string; key: string },
): Promise<ContentEntry | undefined> {
  const { rows } =
    'id' in which
      ? await db.query<ContentEntry>(
          `DELETE FROM content_entries WHERE project_id = $1 AND id = $2 RETURNING ${ENTRY_COLUMNS}`,
          [projectId, which.id],
        )
      : await db.query<ContentEntry>(
          `DELETE FROM content_entries WHERE project_id = $1 AND type = $2 AND key = $3 RETURNING ${ENTRY_COLUMNS}`,
          [projectId, which.type, which.key],
        );
  return rows[0];
}
