import { createApiKey } from '@framedeck/accounts';
import { sql } from '@framedeck/clickhouse';
import { TelemetrySource } from '@framedeck/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../support/processes.js';
import { connectTestStack } from '../support/stack.js';
import { waitFor } from '../support/wait.js';
import {
  batchBody,
  event,
  newTenant,
  postEvents,
  queryRows,
  startConsumer,
  startGateway,
  uniqueProbeName,
  type Tenant,
} from './ingest-harness.js';

// A CI key (preset ci: events:write + events:synthetic) marks automated runs: through the real
// gateway → Kafka → consumer → ClickHouse, every event of its batches is stored as automated
// whatever it claims; an ingest key's events keep the source they were sent with.
const stack = connectTestStack();
let gateway: RunningService;
let consumer: RunningService;
let tenant: Tenant;
let ciKey: string;

beforeAll(async () => {
  tenant = await newTenant(stack.pool, 'pro');
  // What POST /v1/projects/{id}/keys {preset: 'ci'} does (the CLI tests create one through the API).
  ciKey = (await createApiKey(stack.pool, { projectId: tenant.projectId, preset: 'ci' })).rawKey;
  [gateway, consumer] = await Promise.all([startGateway(), startConsumer()]);
});
afterAll(async () => {
  await Promise.all([gateway?.stop(), consumer?.stop()]);
  await stack.close();
});

const CLAIMED = [
  TelemetrySource.TELEMETRY_SOURCE_PLAYER,
  TelemetrySource.TELEMETRY_SOURCE_UNSPECIFIED,
  TelemetrySource.TELEMETRY_SOURCE_AUTOMATED,
];

/** Sends one event per claimed source with `key`; returns the stored sources, in the order sent. */
async function storedSources(key: string): Promise<string[]> {
  const name = uniqueProbeName();
  const now = Date.now() * 1000;
  const events = CLAIMED.map((source, i) => event({ eventName: name, timestampUs: now + i, source }));
  const res = await postEvents(batchBody(events), { 'x-api-key': key });
  expect(res.status).toBe(202);
  const query = sql`SELECT toString(source) AS source FROM events FINAL
                     WHERE project_id = ${tenant.projectId} AND event_name = ${name} ORDER BY timestamp_us`;
  const rows = await waitFor(
    async () => {
      const found = await queryRows<{ source: string }>(stack.clickhouse, query);
      return found.length === CLAIMED.length && found;
    },
    { timeoutMs: 90_000, what: `the ${CLAIMED.length} events of ${name}` },
  );
  return rows.map((r) => r.source);
}

describe('the source of automated runs', () => {
  it('stores every event of a CI key’s batch as automated, even those claiming to be a player', async () => {
    expect(await storedSources(ciKey)).toEqual(['automated', 'automated', 'automated']);
  });

  it('keeps the source an ingest key’s events were sent with', async () => {
    expect(await storedSources(tenant.keys.ingest!)).toEqual(['player', 'unspecified', 'automated']);
  });
});
