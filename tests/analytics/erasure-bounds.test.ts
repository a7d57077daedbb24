import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapTenant, type BootstrapResult } from '@framedeck/accounts';
import { erasureMarker, PLAYER_TABLES } from '@framedeck/analytics';
import { sql } from '@framedeck/clickhouse';
import { startApi, type TestApi } from '../api/support/api-harness.js';
import { sweepErasureJobs } from '../../services/api/src/project-data/erasure-jobs.service.js';

// Erasure is bounded (issue #15): requests of several tenants wait for one sweep, which starts
// exactly one mutation per player table for all of them; one tenant cannot pile up requests.
// The harness starts no worker: jobs wait until the test runs a sweep.
let api: TestApi;
const tenants: BootstrapResult[] = [];
const PLAYER_CAP = 500;

beforeAll(async () => {
  api = await startApi({
    env: {
      FRAMEDECK_API_ERASURE_MAX_JOBS_PER_TENANT: '5',
      FRAMEDECK_API_ERASURE_MAX_PLAYERS_PER_TENANT: `${PLAYER_CAP}`,
    },
  });
  tenants.push(...(await Promise.all(Array.from({ length: 6 }, () => bootstrapTenant(api.pool, { plan: 'pro' })))));
});
afterAll(async () => {
  // Jobs left running would wait for the sweep of the next test that runs one.
  await api.pool.query(`DELETE FROM erasure_jobs WHERE project_id = ANY($1::uuid[])`, [
    tenants.map((t) => t.projectId),
  ]);
  await api.close();
});

const erase = (tenant: BootstrapResult, playerIds: string[]) =>
  api.request('/v1/data/erase', {
    method: 'POST',
    key: tenant.keys.full!,
    projectId: tenant.projectId,
    json: { playerIds },
  });

describe('erasure requests are coalesced', () => {
  it('one sweep starts exactly one mutation per player table, tagged with the sweep, for every tenant’s requests', async () => {
    const [a, b, c] = tenants;
    const jobIds: string[] = [];
    for (const [tenant, players] of [
      [a!, ['coalesce-a1', 'coalesce-a2']],
      [a!, ['coalesce-a3']],
      [b!, ['coalesce-b1']],
      [c!, ['coalesce-c1']],
    ] as const) {
      const res = await erase(tenant, [...players]);
      expect(res.status, res.text).toBe(202);
      jobIds.push(res.body.data.jobId);
    }
    // Waiting: nothing has reached ClickHouse before the sweep.
    const waiting = await api.pool.query<{ mutation_tag: string | null }>(
      `SELECT mutation_tag FROM erasure_jobs WHERE id = ANY($1::uuid[])`,
      [jobIds],
    );
    expect(waiting.rows.map((r) => r.mutation_tag)).toEqual([null, null, null, null]);

    await sweepErasureJobs({ pool: api.pool, clickhouseWriter: api.clickhouse });

    const claimed = await api.pool.query<{ mutation_tag: string | null }>(
      `SELECT DISTINCT mutation_tag FROM erasure_jobs WHERE id = ANY($1::uuid[])`,
      [jobIds],
    );
    expect(claimed.rows).toHaveLength(1); // all four jobs in one sweep
    const tag = claimed.rows[0]!.mutation_tag!;
    expect(tag).toBeTruthy();
    const mutations = await api.clickhouse.rows<{ table: string; command: string }>(
      sql`SELECT table, command FROM system.mutations
           WHERE database = currentDatabase() AND position(command, ${erasureMarker(tag)}) > 0 ORDER BY table`,
    );
    expect(mutations.map((m) => m.table)).toEqual([...PLAYER_TABLES].sort());
    for (const { command } of mutations) {
      for (const tenant of [a!, b!, c!]) expect(command).toContain(tenant.projectId);
      for (const player of ['coalesce-a1', 'coalesce-a2', 'coalesce-a3', 'coalesce-b1', 'coalesce-c1']) {
        expect(command).toContain(player);
      }
    }
  });
});

describe('erasure is capped per tenant (the attacker piles up requests)', () => {
  it('refuses the 6th running request with 429 and Retry-After; another tenant is unaffected', async () => {
    const attacker = tenants[3]!;
    for (let i = 0; i < 5; i++) {
      const res = await erase(attacker, [`flood-${i}`]);
      expect(res.status, res.text).toBe(202);
    }
    const sixth = await erase(attacker, ['flood-5']);
    expect(sixth.status, sixth.text).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(sixth.body).toMatchObject({ status: 429, error_category: 'rate_limit', retryable: true });

    const bystander = await erase(tenants[4]!, ['someone']);
    expect(bystander.status, bystander.text).toBe(202);
  });

  it('refuses players beyond the tenant’s cap, and a list longer than one request may carry', async () => {
    const attacker = tenants[5]!;
    const fill = Array.from({ length: PLAYER_CAP }, (_, i) => `bulk-${i}`);
    const first = await erase(attacker, fill);
    expect(first.status, first.text).toBe(202); // exactly at the cap
    const over = await erase(attacker, ['one-more']);
    expect(over.status, over.text).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);

    const tooLong = await erase(tenants[4]!, [...fill, 'x']);
    expect(tooLong.status, tooLong.text).toBe(400);
  });
});
