import type { Scope } from '@framedeck/auth';
import { html, type Html } from './html.js';
import { renderPage } from './page.js';

/** Who is asking, as the user can check it: the name the client registered and where it sends them. */
export type ClientSummary = { name: string | undefined; redirectHost: string };

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'analytics:read': 'Read project status, heatmaps, insights, builds, retention, funnels, dashboards and alerts',
  'resources:write': 'Change maps, content entries and alert rules',
};

function clientLine(client: ClientSummary): Html {
  return html`<p>
    <strong>${client.name ?? 'An application that gave no name'}</strong> (returns to
    <code>${client.redirectHost}</code>) wants to access your FrameDeck projects.
  </p>`;
}

function errorLine(error: string | undefined): Html {
  return error ? html`<p class="error" role="alert">${error}</p>` : html``;
}

export function signInPage(input: {
  action: string;
  csrfToken: string;
  client: ClientSummary;
  email?: string | undefined;
  error?: string | undefined;
}): string {
  return renderPage(
    'Sign in',
    html`<h1>Sign in to FrameDeck</h1>
      ${clientLine(input.client)} ${errorLine(input.error)}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf_token" value="${input.csrfToken}" />
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxlength="320"
          value="${input.email ?? ''}"
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          maxlength="1024"
        />
        <div class="actions"><button type="submit">Sign in</button></div>
      </form>`,
  );
}

export function consentPage(input: {
  action: string;
  csrfToken: string;
  client: ClientSummary;
  userEmail: string;
  scopes: { scope: Scope; checked: boolean }[];
  projects: { id: string; name: string; checked: boolean }[];
  error?: string | undefined;
}): string {
  const scopeBoxes = input.scopes.map(
    ({ scope, checked }, i) =>
      html`<label for="scope-${i}"
        ><input id="scope-${i}" type="checkbox" name="scope" value="${scope}" ${checked ? html` checked` : html``} />
        <code>${scope}</code>: ${SCOPE_DESCRIPTIONS[scope] ?? ''}</label
      >`,
  );
  const projectBoxes = input.projects.map(
    ({ id, name, checked }, i) =>
      html`<label for="project-${i}"
        ><input id="project-${i}" type="checkbox" name="project" value="${id}" ${checked ? html` checked` : html``} />
        ${name}</label
      >`,
  );
  return renderPage(
    'Authorize application',
    html`<h1>Authorize application</h1>
      ${clientLine(input.client)}
      <p class="hint">
        Signed in as ${input.userEmail}. The application can never run raw SQL, export or erase data, or send events.
      </p>
      ${errorLine(input.error)}
      <form method="post" action="${input.action}">
        <input type="hidden" name="csrf_token" value="${input.csrfToken}" />
        <fieldset>
          <legend>Allow it to</legend>
          ${scopeBoxes}
        </fieldset>
        <fieldset>
          <legend>On these projects</legend>
          ${projectBoxes.length > 0 ? projectBoxes : html`<p>Your account has no projects yet.</p>`}
        </fieldset>
        <div class="actions">
          <button type="submit" name="decision" value="allow">Allow</button>
          <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
        </div>
      </form>`,
  );
}

export function errorPage(title: string, message: string): string {
  return renderPage(
    title,
    html`<h1>${title}</h1>
      <p role="alert">${message}</p>`,
  );
}
