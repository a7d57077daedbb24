import { describe, expect, it } from 'vitest';
import type { ClickHouseSettings } from '@clickhouse/client';
import { insertRollupInput } from './rollups.writer.js';
import { engineFromVersion } from './server-engine.js';
import type { ClickHouseWriter } from './writer.js';

/** A writer that answers `version` for its engine and keeps the settings of each RowBinary insert. */
function recordingWriter(version: string): { writer: ClickHouseWriter; sent: ClickHouseSettings[] } {
  const sent: ClickHouseSettings[] = [];
  const writer = {
    engine: async () => engineFromVersion(version),
    insertRowBinary: async (_table: unknown, _columns: unknown, _rows: Buffer, settings: ClickHouseSettings = {}) => {
      sent.push(settings);
    },
  } as unknown as ClickHouseWriter;
  return { writer, sent };
}

describe('insertRollupInput', () => {
  it('asks for insert deduplication, and on a modern server for no merge pass at insert', async () => {
    const modern = recordingWriter('26.7.3.1');
    await insertRollupInput(modern.writer, Buffer.alloc(0));
    expect(modern.sent).toEqual([{ insert_deduplicate: 1, optimize_on_insert: 0 }]);

    const legacy = recordingWriter('18.16.1');
    await insertRollupInput(legacy.writer, Buffer.alloc(0));
    expect(legacy.sent).toEqual([{ insert_deduplicate: 1 }]);
  });
});
