import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, runWithRequestId } from './index.js';

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('test', 'info', sink), lines };
}

describe('request id on log lines', () => {
  it('tags every line written while a request is served, including after awaits and timers', async () => {
    const { logger, lines } = capturedLogger();
    await runWithRequestId('req-1', async () => {
      logger.info('first');
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.info('after a timer');
    });
    logger.info('outside');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => [l.msg, l.requestId])).toEqual([
      ['first', 'req-1'],
      ['after a timer', 'req-1'],
      ['outside', undefined],
    ]);
    expect(lines[0]!.service).toBe('test');
  });

  it('keeps concurrent requests apart', async () => {
    const { logger, lines } = capturedLogger();
    const slow = runWithRequestId('slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.info('slow done');
    });
    const fast = runWithRequestId('fast', async () => logger.info('fast done'));
    await Promise.all([slow, fast]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(Object.fromEntries(lines.map((l) => [l.msg, l.requestId]))).toEqual({
      'slow done': 'slow',
      'fast done': 'fast',
    });
  });
});
