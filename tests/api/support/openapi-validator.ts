import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { ApiResponse } from './api-harness.js';

/**
 * Validates answers against the served OpenAPI 3.1 document (its schemas are JSON Schema
 * 2020-12), so tests prove the document tells the truth.
 */
export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walked by path strings below
  constructor(readonly document: any) {
    // NOTE: ajv-formats is CommonJS; under ESM its function may sit on `.default`.
    const add = ((addFormats as { default?: unknown }).default ?? addFormats) as (ajv: Ajv2020) => void;
    add(this.ajv);
    this.ajv.addSchema(document, 'openapi');
  }

  /** The schema of `status` for METHOD path (OpenAPI path template), or undefined. */
  responseSchema(method: string, path: string, status: number): object | undefined {
    const response = this.document.paths?.[path]?.[method.toLowerCase()]?.responses?.[String(status)];
    const content = response?.content ?? {};
    const media = content['application/json'] ?? content['application/problem+json'];
    return media?.schema;
  }

  /** Every error body must be a Problem with the problem+json content type. */
  expectProblem(res: ApiResponse, status: number): void {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    this.expectValid({ $ref: 'openapi#/components/schemas/Problem' }, res.body, res.text);
    expect(res.body.status).toBe(status);
  }

  /** The answer matches what the document declares for this operation and status. */
  expectDocumented(res: ApiResponse, method: string, path: string): void {
    const mediaType = res.headers.get('content-type')?.split(';')[0];
    if (mediaType && mediaType !== 'application/json' && mediaType !== 'application/problem+json') {
      // Streams and images: the document must name the media type of this status.
      const content = this.document.paths?.[path]?.[method.toLowerCase()]?.responses?.[String(res.status)]?.content;
      expect(Object.keys(content ?? {}), `${method} ${path} ${res.status}`).toContain(mediaType);
      return;
    }
    const schema = this.responseSchema(method, path, res.status);
    expect(schema, `${method} ${path} does not document status ${res.status}: ${res.text}`).toBeDefined();
    this.expectValid(this.resolveRefs(schema!), res.body, res.text);
  }

  private expectValid(schema: object, value: unknown, text: string): void {
    const validate = this.ajv.compile(schema);
    const ok = validate(value);
    expect(ok, `${JSON.stringify(validate.errors)}\nbody: ${text}`).toBe(true);
  }

  /** Local refs "#/components/…" become refs into the registered document. */
  private resolveRefs(schema: object): object {
    return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi#/'));
  }
}
