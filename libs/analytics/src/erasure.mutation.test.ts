import { renderSql, type WriterCluster } from '@framedeck/clickhouse';
import { describe, expect, it } from 'vitest';
import { erasureStatement, sweepMutationsQuery } from './erasure.mutation.js';

const CLUSTER: WriterCluster = {
  cluster: 'framedeck',
  database: 'fd',
  alterCluster: 'framedeck_alter',
  replicasCluster: 'framedeck_replicas',
};
const PROJECT = '0b7c4c3e-58a4-4f55-9d8f-3f2a6d2b1c10';
const targets = [{ projectId: PROJECT, playerIds: ['p-1', "o'neil"] }];
const text = (fragment: Parameters<typeof renderSql>[0]) => renderSql(fragment, 'literals').query.replace(/\s+/g, ' ');

describe('erasureStatement', () => {
  it('deletes from the table itself on one server', () => {
    expect(text(erasureStatement('events', targets, 'tag-1', undefined))).toBe(
      "ALTER TABLE `events` DELETE WHERE ((project_id = toUUID('0b7c4c3e-58a4-4f55-9d8f-3f2a6d2b1c10') " +
        "AND player_id IN ('p-1', 'o\\'neil'))) AND 'framedeck-erasure:tag-1' != ''",
    );
  });

  it('deletes from the replicated local table ON CLUSTER (the alter cluster), qualified, on a cluster (the Distributed table refuses it)', () => {
    const statement = text(erasureStatement('player_days', targets, 'tag-1', CLUSTER));
    expect(statement).toMatch(/^ALTER TABLE `fd`\.`player_days_local` ON CLUSTER `framedeck_alter` DELETE WHERE /);
    // The same condition and marker as on one server: the sweep finds its mutations by the marker.
    expect(statement.split(' DELETE WHERE ')[1]).toBe(
      text(erasureStatement('player_days', targets, 'tag-1', undefined)).split(' DELETE WHERE ')[1],
    );
  });
});

describe('sweepMutationsQuery', () => {
  it('reads this server’s system.mutations, one copy per table expected', () => {
    const query = text(sweepMutationsQuery('tag-1', undefined));
    expect(query).toContain('FROM system.mutations');
    expect(query).toContain('database = currentDatabase()');
    expect(query).toContain("position(command, 'framedeck-erasure:tag-1') > 0");
    expect(query).toContain('1 AS replicas');
  });

  it('reads every replica’s system.mutations on a cluster and expects one copy per node', () => {
    const query = text(sweepMutationsQuery('tag-1', CLUSTER));
    expect(query).toContain('FROM cluster(`framedeck_replicas`, system, mutations)');
    expect(query).toContain("(SELECT count() FROM system.clusters WHERE cluster = 'framedeck_replicas') AS replicas");
    // A replica that is down must not fail the poll: it is missing from the count instead.
    expect(query).toContain('SETTINGS skip_unavailable_shards = 1');
    expect(query).toContain("database = 'fd'");
  });
});
