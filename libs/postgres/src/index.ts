export { createPool, ensureDatabase, inTransaction, type Pool, type PoolClient } from './pool.js';
export { migratePostgres, POSTGRES_MIGRATIONS_DIR, type MigrationResult } from './migrations.js';
export type { Queryable } from './queryable.js';
export * from './plans.repository.js';
export * from './tenants.repository.js';
export * from './projects.repository.js';
export * from './users.repository.js';
export * from './api-keys.repository.js';
