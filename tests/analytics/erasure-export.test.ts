import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifier, raw, sql, type ClickHouseWriter } from '@framedeck/clickhouse';
import { countPlayerRows, PLAYER_TABLES, startErasureSweep, streamEvents, sweepMutations } from '@framedeck/analytics';
import { holdRetentionTtl } from '../support/global-setup.js';
import { ownClickHouseDatabase, type OwnDatabase } from '../support/own-database.js';
import { waitFor } from '../support/wait.js';
import { daysBefore, insertEvents, type FixtureEvent } from './event-fixtures.js';

// A database of its own: an erasure mutation rewrites every part of the player tables, so in the
// shared test database each round would rewrite all the other tests' rows too, and take as long
// as the suite had written (54.6 s of this file's 60 s on 26.7, after the whole suite).
let database: OwnDatabase | undefined;
let clickhouse: ClickHouseWriter;
const projectA = randomUUID();
const projectB = randomUUID();

const events = (projectId: string, playerId: string, n: number): FixtureEvent[] =>
  Array.from({ length: n }, (_, i) => ({ projectId, playerId, eventName: `e${i}`, at: daysBefore(1, i) }));

beforeAll(async () => {
  database = await ownClickHouseDatabase('erasure');
  clickhouse = database.writer;
  await holdRetentionTtl(database.config); // the fixtures are dated months ago
  await insertEvents(clickhouse, [
    ...events(projectA, 'alice', 3),
    ...events(projectA, 'bob', 2),
    ...events(projectA, 'carol', 4),
    ...events(projectB, 'alice', 5), // same player id in another project: not ours to erase
  ]);
});
afterAll(async () => {
  await database?.drop();
});

const countFinal = async (projectId: string, playerId: string) => {
  const [row] = await clickhouse.rows<{ n: string }>(
    sql`SELECT count() AS n FROM events FINAL WHERE project_id = toUUID(${projectId}) AND player_id = ${playerId}`,
  );
  return Number(row!.n);
};

describe('erasure', () => {
  it('removes every row of the named players in the project, and no one else’s, even rows that arrive late', async () => {
    const target = { projectId: projectA, playerIds: ['alice', 'bob'] };
    // 5 events; 2 player_days rows; 5 player_activity rows (one per name); 5 funnel_steps rows;
    // 10 funnel_step_hours rows (a first and a last per name and hour)
    expect(await countPlayerRows(clickhouse, target)).toBe(5 + 2 + 5 + 5 + 10);
    let tag = randomUUID();
    await startErasureSweep(clickhouse, [target], tag);
    // A late event of alice (still in Kafka when the erasure began) lands in a part the mutation does not cover.
    await insertEvents(clickhouse, events(projectA, 'alice', 1));

    let rounds = 1;
    await waitFor(
      async () => {
        if ((await sweepMutations(clickhouse, tag)).state !== 'finished') return false;
        if ((await countPlayerRows(clickhouse, target)) === 0) return true;
        rounds += 1;
        tag = randomUUID();
        await startErasureSweep(clickhouse, [target], tag);
        return false;
      },
      { timeoutMs: 60_000, what: 'the erasure to finish' },
    );
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(await countFinal(projectA, 'alice')).toBe(0);
    expect(await countFinal(projectA, 'bob')).toBe(0);
    expect(await countFinal(projectA, 'carol')).toBe(4);
    expect(await countFinal(projectB, 'alice')).toBe(5);
    // the player_days and player_activity rollups, funnel_steps and funnel_step_hours forgot them too, and only them
    expect(await countPlayerRows(clickhouse, { projectId: projectA, playerIds: ['alice', 'bob'] })).toBe(0);
    expect(await countPlayerRows(clickhouse, { projectId: projectA, playerIds: ['carol'] })).toBe(4 + 1 + 4 + 4 + 8);
  });

  it('starting a sweep returns once its mutations are recorded, not rewritten, whatever the profile says', async () => {
    // Merges stopped: no mutation can run. The API's sweep loop must not wait for the rewrite
    // (on the modern engine here the admin profile's mutations_sync is 1, clickhouse-local's default).
    const merges = (action: 'STOP' | 'START') =>
      Promise.all(
        PLAYER_TABLES.map((table) =>
          clickhouse.command(
            sql`SYSTEM ${raw(action)} MERGES ${identifier(database!.config.database)}.${identifier(table)}`,
          ),
        ),
      );
    const target = { projectId: projectB, playerIds: ['nobody'] };
    const tag = randomUUID();
    await merges('STOP');
    try {
      const recorded = await Promise.race([
        startErasureSweep(clickhouse, [target], tag).then(() => true),
        delay(10_000).then(() => false),
      ]);
      expect(recorded).toBe(true);
      expect(await sweepMutations(clickhouse, tag)).toMatchObject({ state: 'running' });
    } finally {
      await merges('START');
    }
    await waitFor(async () => (await sweepMutations(clickhouse, tag)).state === 'finished', {
      timeoutMs: 30_000,
      what: 'the mutations to run once merges are back',
    });
  });

  it('reports a sweep whose mutations were never started, so the sweep can start them', async () => {
    expect((await sweepMutations(clickhouse, randomUUID())).state).toBe('not_started');
  });
});

describe('event export stream', () => {
  const collect = async (stream: NodeJS.ReadableStream) => {
    let text = '';
    for await (const chunk of stream) text += chunk.toString();
    return text;
  };

  it('NDJSON: one event per line, only this project, within the time range', async () => {
    const stream = await streamEvents(clickhouse, {
      projectId: projectB,
      format: 'ndjson',
      from: daysBefore(1, 1),
      to: daysBefore(1, 4),
    });
    const lines = (await collect(stream))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.event_name).sort()).toEqual(['e1', 'e2', 'e3']);
    expect(lines[0]).toMatchObject({ kind: 'event', player_id: 'alice', position_x: null, source: 'player' });
    expect(typeof lines[0]!.timestamp_us).toBe('number');
  });

  it('CSV: a header row, then one row per event', async () => {
    const text = await collect(await streamEvents(clickhouse, { projectId: projectB, format: 'csv' }));
    const rows = text.trim().split('\n');
    expect(rows[0]).toMatch(/^"event_id","event_name","timestamp_us"/);
    expect(rows).toHaveLength(6);
  });
});
