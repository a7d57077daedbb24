import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EventsRowBinaryBlock } from '@framedeck/clickhouse';
import { BatchDecodeError, decodeTelemetryBatch, envelopeHeaders } from '@framedeck/proto';
import { readBatch, validateBatch } from '../../services/events-consumer/src/pipeline/batch.processor.js';
import { appendBatchRows } from '../../services/events-consumer/src/sink/events.sink.js';
import { FUZZ_KINDS, TelemetryFuzzer } from './support/telemetry-fuzz.js';
import { FUZZ_SEED, RELIABILITY_FULL } from '../support/config.js';

// Decoder-level fuzzing, in process: thousands of hostile TelemetryBatch bodies through the
// gateway's decode and the consumer's whole per-message path (envelope, decode, validation,
// RowBinary row encoding). Either a body decodes and every event becomes a row or a counted
// rejection, or it is a BatchDecodeError (400 at the gateway, dead-letter in the consumer):
// nothing else may be thrown, and nothing may take long.
// Reproduce a failure with FRAMEDECK_FUZZ_SEED=<seed printed in the failure>.
const CASES = RELIABILITY_FULL ? 20_000 : 4_000;
const PER_CASE_BUDGET_MS = 2_000;

describe(`decoder fuzzing (seed ${FUZZ_SEED}, ${CASES} cases)`, () => {
  it('every body decodes into rows and counted rejections, or is a BatchDecodeError; none is slow', () => {
    const fuzzer = new TelemetryFuzzer(FUZZ_SEED);
    const block = new EventsRowBinaryBlock(1 << 20);
    const seen: Record<string, { decoded: number; refused: number }> = {};
    let slowest = { ms: 0, kind: '' };
    for (let i = 0; i < CASES; i++) {
      const { kind, bytes } = fuzzer.next();
      const where = `seed ${FUZZ_SEED}, case ${i} (${kind}, ${bytes.length} bytes)`;
      const started = performance.now();
      let events: number | 'refused';
      try {
        events = decodeTelemetryBatch(bytes).length;
      } catch (error) {
        expect(error, where).toBeInstanceOf(BatchDecodeError);
        events = 'refused';
      }
      const message = {
        value: bytes,
        headers: envelopeHeaders({
          batchId: randomUUID(),
          projectId: randomUUID(),
          tenantId: randomUUID(),
          receivedAtMs: Date.now(),
          sdkVersion: 'fuzz/1',
          eventCount: 0,
          firstEventIndex: 0,
          retentionDays: 90,
        }),
      };
      const outcome = readBatch(message);
      if (events === 'refused') {
        expect(outcome.kind, where).toBe('dead-letter');
      } else {
        expect(outcome.kind, where).toBe('ok');
        if (outcome.kind !== 'ok') continue;
        block.reset();
        let rejected = 0;
        try {
          const validated = validateBatch(outcome.value);
          appendBatchRows(block, validated);
          for (const r of validated.rejections) rejected += r.count;
        } catch (error) {
          throw new Error(`${where}: the consumer threw ${(error as Error).stack}`);
        }
        expect(block.rows + rejected, where).toBe(events);
        expect(block.bytes().length > 0 || block.rows === 0, where).toBe(true);
      }
      const ms = performance.now() - started;
      if (ms > slowest.ms) slowest = { ms, kind };
      expect(ms, `${where} took ${ms.toFixed(0)} ms`).toBeLessThan(PER_CASE_BUDGET_MS);
      const tally = (seen[kind] ??= { decoded: 0, refused: 0 });
      if (events === 'refused') tally.refused++;
      else tally.decoded++;
    }
    // The corpus really covers both sides of every kind that can go either way.
    expect(Object.keys(seen).sort()).toEqual([...FUZZ_KINDS].sort());
    expect(seen['valid-extreme-values']!.refused).toBe(0);
    expect(seen['random-bytes']!.refused).toBeGreaterThan(0);
    expect(seen['truncated']!.refused).toBeGreaterThan(0);
    expect(seen['length-prefix-lie']!.refused).toBeGreaterThan(0);
    console.log(
      `decoder fuzz seed ${FUZZ_SEED}: ${CASES} cases, slowest ${slowest.ms.toFixed(1)} ms (${slowest.kind})\n` +
        Object.entries(seen)
          .map(([k, v]) => `  ${k}: ${v.decoded} decoded, ${v.refused} refused`)
          .join('\n'),
    );
  });
});
