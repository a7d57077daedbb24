import express, { Router, type Request, type Response } from 'express';
import type Provider from 'oidc-provider';
import { errors as oidcErrors } from 'oidc-provider';
import { z } from 'zod';
import type { Logger } from '@framedeck/logging';
import { findUserById, listProjectsOfTenant, type Pool } from '@framedeck/postgres';
import type { CsrfTokens } from '../security/csrf.js';
import type { UserSignIn } from '../session/user-sign-in.js';
import { OAUTH_PATHS } from './oauth.constants.js';
import type { OAuthGrants } from './oauth-grants.service.js';
import { grantableScopes } from './scope.policy.js';
import { consentPage, errorPage, signInPage, type ClientSummary } from './views/oauth-pages.view.js';
import { pageHeaders } from './views/page.js';

type InteractionDeps = {
  provider: Provider;
  pool: Pool;
  signIn: UserSignIn;
  grants: OAuthGrants;
  csrf: CsrfTokens;
  logger: Logger;
};

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** What one page of the flow needs: the interaction, who asks, and where forms may lead. */
type PageContext = { interaction: Interaction; client: ClientSummary; formTargets: string[]; csrfToken: string };

const LoginForm = z.object({
  csrf_token: z.string().max(128),
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
});

const ConsentForm = z.object({
  csrf_token: z.string().max(128),
  decision: z.enum(['allow', 'deny']),
  scope: z.union([z.string(), z.array(z.string())]).optional(),
  project: z.union([z.string(), z.array(z.string())]).optional(),
});

/** A page answer that ends a request: an error page with a status (and maybe Retry-After). */
class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * The sign-in and consent pages of the authorization flow (/oauth/interaction/{uid}), which
 * the authorization endpoint sends the browser to. Every form carries a CSRF token bound to
 * the interaction, and every page refuses to be framed.
 */
export function interactionRouter(deps: InteractionDeps): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 200 });
  const base = OAUTH_PATHS.interaction;

  router.get(
    `${base}/:uid`,
    page(deps, async (req, res, ctx) => showStep(deps, res, ctx)),
  );

  router.post(
    `${base}/:uid/login`,
    form,
    page(deps, async (req, res, ctx) => {
      expectStep(ctx, 'login');
      const input = checkForm(deps, ctx, LoginForm, req.body);
      const outcome = await deps.signIn.attempt({ ...input, clientIp: req.ip ?? 'unknown' });
      if (!outcome.ok && outcome.reason === 'throttled') {
        throw new PageError(
          429,
          'Too many sign-in attempts',
          `Too many sign-in attempts. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minutes.`,
          outcome.retryAfterSeconds,
        );
      }
      if (!outcome.ok) {
        // One message whether the email is unknown or the password wrong.
        return send(
          res,
          401,
          ctx,
          signInPage({ ...signInInputs(ctx), email: input.email, error: 'Incorrect email or password.' }),
        );
      }
      await deps.provider.interactionFinished(
        req,
        res,
        { login: { accountId: outcome.user.id } },
        { mergeWithLastSubmission: false },
      );
    }),
  );

  router.post(
    `${base}/:uid/consent`,
    form,
    page(deps, async (req, res, ctx) => {
      expectStep(ctx, 'consent');
      const input = checkForm(deps, ctx, ConsentForm, req.body);
      if (input.decision === 'deny') {
        return deps.provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The user denied the request.' },
          { mergeWithLastSubmission: false },
        );
      }
      const { user, projects } = await consentSubject(deps, ctx);
      const requested = new Set(requestedScopes(ctx));
      const scopes = grantableScopes(asArray(input.scope)).filter((s) => requested.has(s));
      const tenantProjects = new Set(projects.map((p) => p.id));
      const projectIds = [...new Set(asArray(input.project))].filter((id) => tenantProjects.has(id));
      if (
        scopes.length === 0 ||
        projectIds.length === 0 ||
        projectIds.length !== new Set(asArray(input.project)).size
      ) {
        const error =
          scopes.length === 0 ? 'Choose at least one permission, or deny.' : 'Choose at least one of your projects.';
        return send(res, 400, ctx, await renderConsent(deps, ctx, error));
      }
      const grantId = await deps.grants.recordConsent({
        userId: user.id,
        tenantId: user.tenantId,
        clientId: ctx.interaction.params.client_id as string,
        scopes,
        projectIds,
      });
      await deps.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    }),
  );

  return router;
}

/** Loads the interaction named by the path (it must match the browser's interaction cookie). */
function page(
  deps: InteractionDeps,
  step: (req: Request, res: Response, ctx: PageContext) => Promise<unknown>,
): express.RequestHandler {
  return async (req, res) => {
    let ctx: PageContext | undefined;
    try {
      ctx = await loadContext(deps, req, res);
      await step(req, res, ctx);
    } catch (error) {
      if (res.headersSent) return;
      const known = toPageError(error);
      if (!known) deps.logger.error({ err: error }, 'OAuth interaction failed');
      const shown = known ?? new PageError(500, 'Something went wrong', 'Something went wrong. Please try again.');
      if (shown.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(shown.retryAfterSeconds));
      res.status(shown.status).set(pageHeaders()).send(errorPage(shown.title, shown.message));
    }
  };
}

async function loadContext(deps: InteractionDeps, req: Request, res: Response): Promise<PageContext> {
  const interaction = await deps.provider.interactionDetails(req, res);
  if (interaction.uid !== req.params.uid) throw new oidcErrors.SessionNotFound('interaction mismatch');
  const params = interaction.params;
  const client = await deps.provider.Client.find(String(params.client_id));
  if (!client) throw new oidcErrors.SessionNotFound('client gone');
  const redirect = new URL(String(params.redirect_uri));
  return {
    interaction,
    client: { name: client.clientName, redirectHost: redirect.host },
    formTargets: [redirect.origin],
    csrfToken: deps.csrf.issue(csrfBinding(interaction.uid)),
  };
}

function toPageError(error: unknown): PageError | undefined {
  if (error instanceof PageError) return error;
  if (error instanceof oidcErrors.SessionNotFound || error instanceof oidcErrors.InvalidRequest) {
    return new PageError(
      400,
      'Sign-in expired',
      'This authorization request expired or was opened in another browser. Go back to the application and start again.',
    );
  }
  return undefined;
}

async function showStep(deps: InteractionDeps, res: Response, ctx: PageContext): Promise<void> {
  switch (ctx.interaction.prompt.name) {
    case 'login':
      return send(res, 200, ctx, signInPage(signInInputs(ctx)));
    case 'consent':
      return send(res, 200, ctx, await renderConsent(deps, ctx));
    default:
      throw new PageError(400, 'Unsupported request', 'This authorization request cannot be completed here.');
  }
}

function expectStep(ctx: PageContext, name: 'login' | 'consent'): void {
  if (ctx.interaction.prompt.name !== name) {
    throw new PageError(
      400,
      'Out of step',
      'This form was already submitted. Go back to the application and start again.',
    );
  }
}

/** Validates a posted form; the CSRF token is checked first, before anything else is looked at. */
function checkForm<T extends z.ZodType<{ csrf_token: string }>>(
  deps: InteractionDeps,
  ctx: PageContext,
  schema: T,
  body: unknown,
): z.output<T> {
  const token = (body as Record<string, unknown> | undefined)?.csrf_token;
  if (!deps.csrf.verify(csrfBinding(ctx.interaction.uid), token)) {
    throw new PageError(403, 'Form expired', 'This form is no longer valid. Reload the page and try again.');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new PageError(400, 'Invalid form', 'The form was incomplete. Go back and try again.');
  return parsed.data;
}

function signInInputs(ctx: PageContext) {
  return {
    action: `${OAUTH_PATHS.interaction}/${ctx.interaction.uid}/login`,
    csrfToken: ctx.csrfToken,
    client: ctx.client,
  };
}

async function renderConsent(deps: InteractionDeps, ctx: PageContext, error?: string): Promise<string> {
  const { user, projects } = await consentSubject(deps, ctx);
  const only = projects.length === 1;
  return consentPage({
    action: `${OAUTH_PATHS.interaction}/${ctx.interaction.uid}/consent`,
    csrfToken: ctx.csrfToken,
    client: ctx.client,
    userEmail: user.email,
    scopes: requestedScopes(ctx).map((scope) => ({ scope, checked: true })),
    projects: projects.map((p) => ({ id: p.id, name: p.name, checked: only })),
    error,
  });
}

async function consentSubject(deps: InteractionDeps, ctx: PageContext) {
  const accountId = ctx.interaction.session?.accountId;
  const user = accountId ? await findUserById(deps.pool, accountId) : undefined;
  if (!user) throw new oidcErrors.SessionNotFound('signed-in user gone');
  return { user, projects: await listProjectsOfTenant(deps.pool, user.tenantId) };
}

/** The scopes of the request, already narrowed to grantable ones when it was accepted. */
function requestedScopes(ctx: PageContext) {
  return grantableScopes(String(ctx.interaction.params.scope ?? '').split(' '));
}

function send(res: Response, status: number, ctx: PageContext, body: string): void {
  res.status(status).set(pageHeaders(ctx.formTargets)).send(body);
}

function csrfBinding(uid: string): string {
  return `oauth-interaction:${uid}`;
}

function asArray(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
