import type { Queryable } from './queryable.js';

export type User = { id: string; tenantId: string; email: string; passwordHash: string; createdAt: Date };

const USER_COLUMNS = `id, tenant_id AS "tenantId", email, password_hash AS "passwordHash", created_at AS "createdAt"`;

export async function createUser(
  db: Queryable,
  input: { tenantId: string; email: string; passwordHash: string },
): Promise<User> {
  const { rows } = await db.query<User>(
    `INSERT INTO users (tenant_id, email, password_hash) VALUES ($1, lower($2), $3) RETURNING ${USER_COLUMNS}`,
    [input.tenantId, input.email, input.passwordHash],
  );
  return rows[0]!;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<User | undefined> {
  const { rows } = await db.query<User>(`SELECT ${USER_COLUMNS} FROM users WHERE email = lower($1)`, [email]);
  return rows[0];
}

export async function findUserById(db: Queryable, id: string): Promise<User | undefined> {
  const { rows } = await db.query<User>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0];
}
