import { randomBytes } from 'node:crypto';
import { hashPassword, type KeyPreset } from '@framedeck/auth';
import { createProject, createTenant, createUser, type Pool } from '@framedeck/postgres';
import { createApiKey } from './api-keys.js';

export type PlanId = 'free' | 'pro' | 'enterprise';

/** The Free plan allows two active keys, so it gets only the two a studio needs first. */
const PRESETS_BY_PLAN: Record<PlanId, KeyPreset[]> = {
  free: ['ingest', 'full'],
  pro: ['ingest', 'read', 'readWrite', 'full'],
  enterprise: ['ingest', 'read', 'readWrite', 'full'],
};

export type BootstrapResult = {
  tenantId: string;
  projectId: string;
  projectName: string;
  user: { email: string; password: string };
  keys: Partial<Record<KeyPreset, string>>;
};

/** A new tenant with one dashboard user, one project and one key per preset the plan allows. */
export async function bootstrapTenant(
  pool: Pool,
  input: { plan: PlanId; tenantName?: string; projectName?: string; email?: string; password?: string },
): Promise<BootstrapResult> {
  const suffix = randomBytes(4).toString('hex');
  const password = input.password ?? randomBytes(12).toString('base64url');
  const email = input.email ?? `owner-${suffix}@framedeck.local`;
  const tenant = await createTenant(pool, { name: input.tenantName ?? `Studio ${suffix}`, planId: input.plan });
  await createUser(pool, { tenantId: tenant.id, email, passwordHash: await hashPassword(password) });
  const project = await createProject(pool, { tenantId: tenant.id, name: input.projectName ?? 'Demo game' });
  const keys = await createPresetKeys(pool, project.id, PRESETS_BY_PLAN[input.plan]);
  return { tenantId: tenant.id, projectId: project.id, projectName: project.name, user: { email, password }, keys };
}

/** Adds a project to a tenant with an ingest and a full key. */
export async function createProjectWithKeys(
  pool: Pool,
  input: { tenantId: string; name: string },
): Promise<{ projectId: string; keys: Partial<Record<KeyPreset, string>> }> {
  const project = await createProject(pool, input);
  return { projectId: project.id, keys: await createPresetKeys(pool, project.id, ['ingest', 'full']) };
}

async function createPresetKeys(pool: Pool, projectId: string, presets: KeyPreset[]) {
  const keys: Partial<Record<KeyPreset, string>> = {};
  for (const preset of presets) keys[preset] = (await createApiKey(pool, { projectId, preset })).rawKey;
  return keys;
}
