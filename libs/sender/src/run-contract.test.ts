import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { decodeTelemetryBatch, type TelemetryEvent } from '@framedeck/proto';
import { afterEach, describe, expect, it } from 'vitest';
import { applyRunContext, RUN_ENV, runContextEnv, runContextFromEnv } from './run-contract.js';
import { TelemetrySender } from './telemetry.sender.js';

const CI_ENV = {
  FRAMEDECK_BUILD_ID: 'ci-4711',
  FRAMEDECK_GIT_BRANCH: 'main',
  FRAMEDECK_GIT_COMMIT: '0123abcd',
  FRAMEDECK_TEST_SCENARIO: 'bridge-flythrough',
};

describe('run contract', () => {
  it('reads the run from the environment, leaving out unset and blank variables', () => {
    expect(runContextFromEnv(CI_ENV)).toEqual({
      buildId: 'ci-4711',
      branch: 'main',
      commit: '0123abcd',
      scenario: 'bridge-flythrough',
    });
    expect(runContextFromEnv({ FRAMEDECK_BUILD_ID: ' 1.5.0 ', FRAMEDECK_GIT_BRANCH: '  ' })).toEqual({
      buildId: '1.5.0',
    });
    expect(runContextEnv(runContextFromEnv(CI_ENV))).toEqual(CI_ENV);
  });

  it('fills build_id where an event has none and adds run.* attributes, an event’s own values winning', () => {
    const run = runContextFromEnv(CI_ENV);
    const [bare, own] = applyRunContext(
      [
        { eventName: 'perf_sample', attributes: { difficulty: 'hard' } },
        { eventName: 'perf_sample', buildId: '1.4.2', attributes: { 'run.scenario': 'menu' } },
      ],
      run,
    );
    expect(bare).toMatchObject({
      buildId: 'ci-4711',
      attributes: {
        difficulty: 'hard',
        'run.branch': 'main',
        'run.commit': '0123abcd',
        'run.scenario': 'bridge-flythrough',
      },
    });
    expect(own).toMatchObject({ buildId: '1.4.2', attributes: { 'run.scenario': 'menu', 'run.branch': 'main' } });
  });

  it('leaves events untouched (not even copied) outside a run', () => {
    const events = [{ eventName: 'e' }];
    expect(applyRunContext(events, runContextFromEnv({}))).toBe(events);
  });
});

describe('TelemetrySender in a run', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A listener that answers 202 and keeps what each POST carried. */
  async function ingestListener() {
    const received: { key: string | undefined; events: TelemetryEvent[] }[] = [];
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const key = req.headers['x-api-key'];
        received.push({ key: key as string, events: decodeTelemetryBatch(gunzipSync(Buffer.concat(chunks))) });
        res.writeHead(202).end('{"status":"accepted"}');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, received };
  }

  it('takes the endpoint, the key and the run from the environment it is given', async () => {
    const ingest = await ingestListener();
    const sender = new TelemetrySender({
      env: { ...CI_ENV, [RUN_ENV.ingestUrl]: ingest.url, [RUN_ENV.ingestKey]: 'fd_ci_key' },
    });
    await sender.send([{ eventName: 'perf_sample', sessionId: 's', timestampUs: Date.now() * 1000 }]);
    await sender.close();
    expect(ingest.received).toHaveLength(1);
    expect(ingest.received[0]!.key).toBe('fd_ci_key');
    const [event] = ingest.received[0]!.events;
    expect(event!.buildId).toBe('ci-4711');
    expect(event!.attributes).toEqual({
      'run.branch': 'main',
      'run.commit': '0123abcd',
      'run.scenario': 'bridge-flythrough',
    });
  });

  it('needs an endpoint and a key from its options or the environment', () => {
    expect(() => new TelemetrySender({ env: {} })).toThrow(/FRAMEDECK_INGEST_URL/);
    expect(() => new TelemetrySender({ env: { [RUN_ENV.ingestUrl]: 'http://127.0.0.1:1' } })).toThrow(
      /FRAMEDECK_INGEST_KEY/,
    );
  });
});
