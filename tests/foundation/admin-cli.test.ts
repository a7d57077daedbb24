import { afterAll, describe, expect, it } from 'vitest';
import { createApiKey, PlanLimitError } from '@framedeck/accounts';
import { hashApiKey } from '@framedeck/auth';
import { findActiveKeyByHash } from '@framedeck/postgres';
import { runCli } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { TEST_ENV } from '../support/config.js';

const stack = connectTestStack();
afterAll(() => stack.close());

/** Every text-like value in every table of the test database, to search for leaked secrets. */
async function everyStoredValue(): Promise<string> {
  const tables = (
    await stack.pool.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'`)
  ).rows.map((r) => r.t);
  let all = '';
  for (const table of tables) {
    const { rows } = await stack.pool.query(`SELECT * FROM "${table}"`);
    all += JSON.stringify(rows, (_k, v) => (v?.type === 'Buffer' ? Buffer.from(v.data).toString('latin1') : v));
  }
  return all;
}

describe('framedeck bootstrap', () => {
  it('prints the contract JSON with four working keys on the pro plan, stored only as hashes', async () => {
    const { code, stdout, stderr } = await runCli(['bootstrap', '--plan', 'pro', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(Object.keys(result).sort()).toEqual(
      ['appOrigin', 'baseUrl', 'ingestUrl', 'keys', 'projectId', 'projectName', 'tenantId', 'user'].sort(),
    );
    expect(result.appOrigin).toBe(TEST_ENV.FRAMEDECK_APP_ORIGIN);
    expect(result.baseUrl).toBe(`${TEST_ENV.FRAMEDECK_APP_ORIGIN}/api`);
    expect(result.ingestUrl).toBe(TEST_ENV.FRAMEDECK_INGEST_URL);
    expect(Object.keys(result.keys).sort()).toEqual(['full', 'ingest', 'read', 'readWrite']);

    const expectedScopes = {
      ingest: ['events:write'],
      read: ['analytics:read'],
      readWrite: ['analytics:read', 'resources:write'],
      full: ['analytics:read', 'resources:write', 'data:admin'],
    };
    for (const [preset, raw] of Object.entries(result.keys as Record<string, string>)) {
      expect(raw).toMatch(/^fd_/);
      const principal = await findActiveKeyByHash(stack.pool, hashApiKey(raw));
      expect(principal).toMatchObject({
        projectId: result.projectId,
        tenantId: result.tenantId,
        planId: 'pro',
        scopes: expectedScopes[preset as keyof typeof expectedScopes],
      });
    }
    // A key that differs in one character authenticates nothing.
    const tampered = result.keys.full.slice(0, -1) + (result.keys.full.endsWith('A') ? 'B' : 'A');
    expect(await findActiveKeyByHash(stack.pool, hashApiKey(tampered))).toBeUndefined();

    const stored = await everyStoredValue();
    for (const raw of Object.values(result.keys as Record<string, string>)) expect(stored).not.toContain(raw);
    expect(stored).not.toContain(result.user.password);
  });

  it('creates only the ingest and full keys on the free plan, whose limit is two active keys', async () => {
    const { code, stdout } = await runCli(['bootstrap', '--plan', 'free', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(Object.keys(result.keys).sort()).toEqual(['full', 'ingest']);
    await expect(createApiKey(stack.pool, { projectId: result.projectId, preset: 'read' })).rejects.toBeInstanceOf(
      PlanLimitError,
    );
  });

  it('rejects an unknown plan with a usage error', async () => {
    const { code, stderr } = await runCli(['bootstrap', '--plan', 'platinum', '--json']);
    expect(code).toBe(2);
    expect(stderr).toContain('--plan must be one of free, pro, enterprise');
  });
});

describe('framedeck project create', () => {
  it('adds a project with an ingest and a full key to an existing tenant', async () => {
    const tenant = JSON.parse((await runCli(['bootstrap', '--plan', 'pro', '--json'])).stdout);
    const { code, stdout } = await runCli([
      'project',
      'create',
      '--tenant',
      tenant.tenantId,
      '--name',
      'Second game',
      '--json',
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(Object.keys(result).sort()).toEqual(['keys', 'projectId']);
    expect(Object.keys(result.keys).sort()).toEqual(['full', 'ingest']);
    const principal = await findActiveKeyByHash(stack.pool, hashApiKey(result.keys.full));
    expect(principal).toMatchObject({
      projectId: result.projectId,
      tenantId: tenant.tenantId,
      projectName: 'Second game',
    });
  });

  it('refuses a tenant that does not exist', async () => {
    const { code, stderr } = await runCli([
      'project',
      'create',
      '--tenant',
      '00000000-0000-4000-8000-000000000000',
      '--name',
      'x',
      '--json',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('no tenant');
  });
});
