import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Scope } from '@framedeck/auth';
import type { ApiServices } from './api-services.js';
import type { RequestAliases } from './field-aliases.js';
import type { Principal } from './principal.js';

type AnyObjectSchema = z.ZodObject<z.ZodRawShape>;

/**
 * Everything about one endpoint, in one object: the registry mounts it (authentication, rate
 * limit, scope, validation, project access, envelope) and the OpenAPI document is generated
 * from the same schemas. See services/api/README.md, "How to add an endpoint".
 */
export type RouteDefinition<
  P extends AnyObjectSchema = AnyObjectSchema,
  Q extends AnyObjectSchema = AnyObjectSchema,
  B extends z.ZodType = z.ZodType,
  D extends z.ZodType = z.ZodType,
> = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI form, under /v1: `/v1/projects/{id}/keys/{keyId}`. */
  path: `/v1/${string}`;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /**
   * `scope`: what the credential must hold (null: any valid credential, e.g. whoami).
   * `credentials`: 'apiKey' refuses bearer tokens with 401 (whoami); 'session' accepts only a
   * signed-in dashboard user (account settings); 'none' reads no credential at all (signing in,
   * the one call made before there is one: scope must be null, the handler has no principal).
   * Default 'any'.
   */
  auth: { scope: Scope | null; credentials?: 'any' | 'apiKey' | 'session' | 'none' };
  /**
   * Which quota the request counts against. Default 'plan' (the tenant's hourly plan limit).
   * 'none': no quota and no X-RateLimit-* headers (the dashboard session endpoints, which limit
   * sign-in attempts themselves and must not spend the tenant's plan on page loads).
   */
  rateLimit?: 'plan' | 'whoami' | 'none';
  /**
   * Where the project comes from, checked against the credential before the handler runs:
   * 'path' = the path parameter `id`; 'header' = X-Project-Id. (A project named in a body, as
   * in POST /v1/query, is checked by the handler with `ctx.requireProject(id)`.)
   */
  project?: 'path' | 'header';
  request?: {
    params?: P;
    query?: Q;
    body?: B;
    /** Documentation only: a multipart/form-data body that the handler parses itself (uploads). */
    multipart?: z.ZodType;
    /** Other names clients send for canonical fields, renamed before validation (http/field-aliases.ts). */
    aliases?: RequestAliases;
    /** A JSON body larger than this is a 413. Default FRAMEDECK_API_JSON_BODY_LIMIT_BYTES. */
    bodyLimitBytes?: number;
  };
  response: {
    status?: 200 | 201 | 202;
    description: string;
    data: D;
    /**
     * Non-JSON answers the handler writes to ctx.res itself (streams, images), by media type:
     * documented instead of the JSON envelope.
     */
    media?: Record<string, z.ZodType>;
  };
  /** Error statuses this operation can answer besides the ones every operation can. */
  errors?: readonly number[];
  /** What an error status means for this operation, where the generic description says too little. */
  errorDescriptions?: Readonly<Partial<Record<number, string>>>;
  handler: (ctx: RouteContext<z.output<P>, z.output<Q>, z.output<B>>) => Promise<z.input<D> | void>;
};

export type RouteContext<P, Q, B> = {
  req: Request;
  /** Write to it only for non-JSON responses (then return nothing). */
  res: Response;
  principal: Principal;
  params: P;
  query: Q;
  body: B;
  /** The checked project; only on routes that declare `project`. */
  projectId: string;
  /** Checks a project named elsewhere (e.g. a body field) like the declared ones: 404 if not accessible. */
  requireProject: (projectId: string) => string;
  services: ApiServices;
};

/** Identity function that infers a route's types from its schemas. */
export function defineRoute<
  P extends AnyObjectSchema,
  Q extends AnyObjectSchema,
  B extends z.ZodType,
  D extends z.ZodType,
>(definition: RouteDefinition<P, Q, B, D>): RouteDefinition {
  return definition as unknown as RouteDefinition;
}
