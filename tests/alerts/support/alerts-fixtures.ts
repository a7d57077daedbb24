import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getDefaultThresholdProfileId, type AlertRuleFields, type Pool } from '@framedeck/postgres';
import { verifyWebhookSignature, type SignatureCheck } from '@framedeck/notifications';
import { insertEvents, type FixtureEvent } from '../../analytics/event-fixtures.js';

export { insertEvents };

export type TestMap = { id: string; mapId: string };

/** A 100 × 50 world map (4 × 2 cells of 25 units), written straight to Postgres. */
export async function createTestMap(pool: Pool, projectId: string, name = 'Test map'): Promise<TestMap> {
  const sha = createHash('sha256').update(projectId).digest('hex');
  await pool.query(
    `INSERT INTO map_images (project_id, sha256, content_type, width, height, bytes)
     VALUES ($1, $2, 'image/png', 1, 1, '\\x00') ON CONFLICT DO NOTHING`,
    [projectId, sha],
  );
  const mapId = `map-${randomUUID().slice(0, 8)}`;
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO maps (project_id, map_id, name, image_sha256, world_min_x, world_min_y, world_max_x, world_max_y,
                       image_width, image_height)
     VALUES ($1, $2, $3, $4, 0, 0, 100, 50, 400, 200) RETURNING id`,
    [projectId, mapId, name, sha],
  );
  return { id: rows[0]!.id, mapId };
}

/**
 * Frame events on the 4 × 2 grid of createTestMap (cell size 25): one event per listed cell
 * centre with the given fps, an hour before `now`.
 */
export function frameEvents(
  projectId: string,
  map: TestMap,
  fpsByCell: ReadonlyArray<[cellX: number, cellY: number, fps: number]>,
  now: Date,
): FixtureEvent[] {
  return fpsByCell.map(([cx, cy, fps]) => ({
    projectId,
    mapId: map.mapId,
    at: new Date(now.getTime() - 3_600_000),
    position: [cx * 25 + 12.5, cy * 25 + 12.5, 0],
    fps,
    frameTimeMs: 1000 / fps,
    memoryBytes: 2_000 * 1_048_576,
  }));
}

export type ReceivedRequest = {
  headers: http.IncomingHttpHeaders;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed notification; tests assert on it
  json: any;
  signature: SignatureCheck | undefined;
};

/**
 * A real webhook receiver on loopback. It verifies the HMAC signature like a customer would
 * (401 when it does not verify) and answers with `respond` (default 204).
 */
export async function startReceiver(
  options: {
    secret?: () => string | undefined;
    /** The receiver's clock in unix seconds (tests that move the sender's clock move this one). */
    nowSeconds?: () => number;
    respond?: (req: ReceivedRequest, index: number) => number | 'hang';
  } = {},
) {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const secret = options.secret?.();
      const signature = secret
        ? verifyWebhookSignature({
            secret,
            body,
            timestampHeader: req.headers['x-framedeck-timestamp'] as string | undefined,
            signatureHeader: req.headers['x-framedeck-signature'] as string | undefined,
            nowSeconds: options.nowSeconds?.(),
          })
        : undefined;
      const entry: ReceivedRequest = { headers: req.headers, body, json: JSON.parse(body), signature };
      received.push(entry);
      const status = signature && !signature.valid ? 401 : (options.respond?.(entry, received.length - 1) ?? 204);
      if (status === 'hang') return; // never answers: the sender is "mid-delivery"
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Stops a test project's rules and channels so later runs never evaluate or deliver them. */
export async function retireProjectAlerts(pool: Pool, projectId: string): Promise<void> {
  await pool.query(`UPDATE alert_rules SET is_active = false WHERE project_id = $1`, [projectId]);
  await pool.query(`DELETE FROM notification_channels WHERE project_id = $1`, [projectId]);
}

/** Rule fields for tests: fps below the default profile's warn limit on `map`, overridable. */
export async function testRuleFields(
  pool: Pool,
  projectId: string,
  map: TestMap,
  overrides: Partial<AlertRuleFields> = {},
): Promise<AlertRuleFields> {
  return {
    name: 'Low fps',
    mapId: map.id,
    thresholdProfileIds: [(await getDefaultThresholdProfileId(pool, projectId))!],
    metric: 'fps',
    thresholdLevel: 'warn',
    failPercentage: 25,
    evaluationDays: 1,
    cellSize: 25,
    cooldownMinutes: 0,
    isActive: true,
    channelIds: [],
    ...overrides,
  };
}
