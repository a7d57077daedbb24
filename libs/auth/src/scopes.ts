/**
 * Scopes are the only thing that decides what a credential may do (never a key's prefix).
 * - events:write      ingest telemetry (SDKs)
 * - events:synthetic  ingest events marked as synthetic/automated load (CI keys); never via OAuth
 * - analytics:read    dashboards, status, analytics reads
 * - resources:write   maps, content, alerts, keys
 * - data:admin        raw SQL, export, player-data erasure
 */
export const SCOPES = ['events:write', 'events:synthetic', 'analytics:read', 'resources:write', 'data:admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** OAuth tokens can only ever carry these (spec: Authentication, item 7). */
export const OAUTH_GRANTABLE_SCOPES: readonly Scope[] = ['analytics:read', 'resources:write'];

export const KEY_PRESETS = {
  ingest: ['events:write'],
  read: ['analytics:read'],
  readWrite: ['analytics:read', 'resources:write'],
  full: ['analytics:read', 'resources:write', 'data:admin'],
  // The spec's "CI key": an ingest key whose batches are automated runs (QA bots, CI profile
  // tests): every event it sends is stored with source automated (docs/automated-runs.md).
  ci: ['events:write', 'events:synthetic'],
} as const satisfies Record<string, readonly Scope[]>;
export type KeyPreset = keyof typeof KEY_PRESETS;

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function isKeyPreset(value: string): value is KeyPreset {
  return Object.hasOwn(KEY_PRESETS, value);
}

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes(needed);
}
