import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { getOrCreateServerSecret, type Queryable } from '@framedeck/postgres';

/** A private JSON Web Key as oidc-provider wants it (RSA, signing). */
export type PrivateJwk = Record<string, string>;

export type ServerSecrets = {
  /** Signs the authorization server's cookies (interaction and browser-session references). */
  cookieKeys: string[];
  /** The authorization server's signing key (it publishes the public half at /oauth/jwks). */
  signingKeys: PrivateJwk[];
  /** Keys the HMAC of CSRF tokens. */
  csrfKey: Buffer;
};

/**
 * Loads the secrets every API instance must share, generating them on the very first start
 * (stored in Postgres, table server_secrets), so a fresh install needs no secret configuration.
 * NOTE: anyone who can read the database can read these; that is the same trust boundary as
 * the data they protect.
 */
export async function loadServerSecrets(db: Queryable): Promise<ServerSecrets> {
  const cookieKeys = await getOrCreateServerSecret(db, 'oauth.cookie-keys', () => [
    randomBytes(32).toString('base64url'),
  ]);
  const signingKeys = await getOrCreateServerSecret(db, 'oauth.signing-keys', () => [generateSigningKey()]);
  const csrfKey = await getOrCreateServerSecret(db, 'csrf.key', () => randomBytes(32).toString('base64url'));
  return { cookieKeys, signingKeys, csrfKey: Buffer.from(csrfKey, 'base64url') };
}

function generateSigningKey(): PrivateJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as PrivateJwk;
  return { ...jwk, use: 'sig', alg: 'RS256', kid: randomBytes(8).toString('hex') };
}
