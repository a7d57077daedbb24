import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdentityApi, type IdentityApi } from '../oauth/support/identity-harness.js';
import { inheritedEnv, REPO_ROOT, UPDATE_GENERATED } from '../support/config.js';

/**
 * The dashboard's API types (services/dashboard/src/api/generated/openapi.ts) are generated from
 * the document the API serves at {base_url}/openapi.json. Run against a real API (with the
 * OAuth and sign-in endpoints), the generator in --check mode must find the committed file current.
 */
const run = promisify(execFile);
let api: IdentityApi;
beforeAll(async () => {
  api = await startIdentityApi();
});
afterAll(() => api.close());

describe("the dashboard's generated API types", () => {
  it('are what the served OpenAPI document generates (run npm run generate:api-types after changing an API shape)', async () => {
    // FRAMEDECK_UPDATE_GENERATED=1 rewrites the file from this API instead (no `npm start` needed).
    const mode = UPDATE_GENERATED ? [] : ['--check'];
    const check = run('node', ['tools/dashboard-api-types.mjs', ...mode, '--from', `${api.baseUrl}/openapi.json`], {
      cwd: REPO_ROOT,
      env: inheritedEnv(),
    });
    await expect(check).resolves.toBeDefined();
  });

  it('would notice a change of the API: a field dropped from a response fails the check', async () => {
    const server = await import('node:http').then(({ createServer }) =>
      createServer((_req, res) => {
        const document = structuredClone(api.api.openApiDocument) as {
          components: { schemas: Record<string, { properties: Record<string, unknown> }> };
        };
        delete document.components.schemas.HeatmapCell!.properties.p95_frame_time;
        res.setHeader('content-type', 'application/json').end(JSON.stringify(document));
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const failure = await run(
        'node',
        ['tools/dashboard-api-types.mjs', '--check', '--from', `http://127.0.0.1:${port}/openapi.json`],
        { cwd: REPO_ROOT, env: inheritedEnv() },
      ).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('out of date');
    } finally {
      server.close();
    }
  });
});
