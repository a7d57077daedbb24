import type { ClientMetadata } from 'oidc-provider';

/** The client_id the public Framedash CLI sends (`framedash login`), FrameDeck's default. */
export const DEFAULT_CLI_CLIENT_ID = 'fdc_framedash_cli';

/**
 * The pre-registered public client of the command-line tool: registered with the provider at
 * start-up (a static client, never stored or changed through registration), PKCE only, no secret.
 * As a native application its http loopback redirect matches on any port (RFC 8252 §7.3: the
 * CLI listens on an ephemeral port, `http://127.0.0.1:<port>/callback`), never another host or
 * path. Revocation (`framedash logout`) needs no secret either: the client is public.
 */
export function cliClientMetadata(clientId: string): ClientMetadata {
  return {
    client_id: clientId,
    client_name: 'Framedash CLI',
    application_type: 'native',
    redirect_uris: ['http://127.0.0.1/callback', 'http://[::1]/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
