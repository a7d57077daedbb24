import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type TestApi } from './support/api-harness.js';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

describe('{base_url}/openapi.json', () => {
  it('is OpenAPI 3.1, served with rate-limit headers, the same document the app was built with', async () => {
    const res = await api.request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body).toEqual(JSON.parse(JSON.stringify(api.api.openApiDocument)));
    expect(res.body.servers).toEqual([{ url: api.config.addresses.baseUrl }]);
  });

  it('gives every operation a scope, a security requirement, the problem schema and the rate-limit headers', async () => {
    const { body: doc } = await api.request('/openapi.json');
    // Operations on {base_url}; the ingest endpoint has a server of its own (tested below).
    const operations = Object.entries(doc.paths)
      .filter(([, item]) => !(item as { servers?: unknown }).servers)
      .flatMap(
        ([path, item]) => Object.entries(item as Record<string, any>).map(([method, op]) => ({ path, method, op })), // eslint-disable-line @typescript-eslint/no-explicit-any
      );
    expect(operations.length).toBeGreaterThan(0);
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(path, where).toMatch(/^\/v1\//);
      expect(op['x-required-scope'], where).toMatch(/^(any|analytics:read|resources:write|data:admin)$/);
      expect(op.security, where).toContainEqual({ ApiKeyAuth: [] });
      const bearer = op.security.find((s: object) => 'BearerAuth' in s);
      if (['data:admin'].includes(op['x-required-scope']) || path === '/v1/whoami')
        expect(bearer, where).toBeUndefined();
      for (const status of ['401', '429']) {
        expect(op.responses[status]?.content['application/problem+json'].schema, where).toEqual({
          $ref: '#/components/schemas/Problem',
        });
      }
      for (const response of Object.values(op.responses) as { headers: object }[]) {
        expect(Object.keys(response.headers), where).toEqual(
          expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
        );
      }
      expect(op.responses['429'].headers['Retry-After'], where).toBeDefined();
    }
  });

  it('documents validation from the same schemas: the project id is a uuid path parameter', async () => {
    const { body: doc } = await api.request('/openapi.json');
    const status = doc.paths['/v1/projects/{id}/status'].get;
    expect(status.parameters).toContainEqual(
      expect.objectContaining({
        in: 'path',
        name: 'id',
        required: true,
        schema: expect.objectContaining({ format: 'uuid' }),
      }),
    );
    const create = doc.paths['/v1/projects/{id}/keys'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.properties.preset.enum).toEqual(['ingest', 'read', 'readWrite', 'full', 'ci']);
  });
});

describe('the ingest endpoint in {base_url}/openapi.json', () => {
  it('is POST /v1/events on {ingest_url}, with its headers, protobuf body and every gateway status', async () => {
    const { body: doc } = await api.request('/openapi.json');
    const item = doc.paths['/v1/events'];
    expect(item.servers).toEqual([expect.objectContaining({ url: api.config.addresses.ingestUrl })]);
    const op = item.post;
    expect(op['x-required-scope']).toBe('events:write');
    expect(op.security).toEqual([{ ApiKeyAuth: [] }]);
    expect(Object.keys(op.requestBody.content)).toEqual(['application/x-protobuf']);
    const headers = op.parameters.filter((p: { in: string }) => p.in === 'header');
    expect(
      Object.fromEntries(headers.map((p: { name: string; required?: boolean }) => [p.name, !!p.required])),
    ).toEqual({
      'X-SDK-Version': true,
      'Content-Length': true,
      'Content-Encoding': false,
      'Idempotency-Key': false,
    });
    expect(Object.keys(op.responses).sort()).toEqual(['202', '400', '401', '403', '411', '413', '415', '429', '503']);
    expect(op.responses['429'].headers['Retry-After']).toBeDefined();
    expect(op.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/IngestError',
    });
  });
});

describe('{base_url}/docs', () => {
  it('is an interactive page whose every asset is served here (works offline, no CDN)', async () => {
    const page = await api.request('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).not.toMatch(/https?:\/\//);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(expect.arrayContaining(['docs/swagger-ui-bundle.js', 'docs/init.js']));
    for (const asset of assets) {
      const res = await fetch(new URL(asset, `${api.baseUrl}/docs`));
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(0);
    }
    const init = await api.request('/docs/init.js');
    expect(init.text).toContain("url: 'openapi.json'");
  });

  it('serves only the UI files, nothing else of the package', async () => {
    expect((await api.request('/docs/package.json')).status).toBe(404);
    expect((await api.request('/docs/..%2F..%2Fpackage.json')).status).toBe(404);
  });
});
