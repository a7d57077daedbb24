import { createHash } from 'node:crypto';
import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import {
  consumeOAuthModel,
  deleteOAuthConsentOfGrant,
  destroyOAuthGrant,
  destroyOAuthModel,
  destroyOAuthModelsOfGrant,
  findOAuthModel,
  findOAuthModelByUid,
  inTransaction,
  upsertOAuthModel,
  type Pool,
} from '@framedeck/postgres';

/**
 * Models whose id is a bearer secret: the opaque token or code value itself, or the browser
 * session cookie. They are stored under the SHA-256 of the id (and without the `jti` copy of
 * it in the payload), so a leaked table holds nothing a client could present.
 */
const SECRET_ID_MODELS = new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode', 'Session']);

/**
 * oidc-provider's storage contract, on Postgres (table oauth_models). One instance per model
 * name; the library creates them through `postgresAdapterFactory(pool)`.
 */
export class PostgresAdapter implements Adapter {
  private readonly secretIds: boolean;

  constructor(
    private readonly pool: Pool,
    private readonly model: string,
  ) {
    this.secretIds = SECRET_ID_MODELS.has(model);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const stored: AdapterPayload = { ...payload };
    if (this.secretIds) delete stored.jti;
    await upsertOAuthModel(this.pool, {
      model: this.model,
      id: this.key(id),
      payload: stored as Record<string, unknown>,
      grantId: payload.grantId,
      uid: payload.uid,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const payload = await findOAuthModel(this.pool, this.model, this.key(id));
    if (!payload) return undefined;
    return this.secretIds ? { ...payload, jti: id } : (payload as AdapterPayload);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    // NOTE: for a Session this payload has no jti (only its hash is stored). The library only
    // reads sessions found by uid (to check who is signed in), it never saves them back.
    const found = await findOAuthModelByUid(this.pool, this.model, uid);
    return found?.payload as AdapterPayload | undefined;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined; // the device flow is disabled
  }

  /**
   * The library checks `consumed` and then consumes, in two steps: two requests presenting the
   * same code or refresh token at the same moment would both pass the check. The update is
   * atomic, and the request that loses the race is treated as what it is, a replay: the whole
   * grant is revoked and the request gets invalid_grant. NOTE: the winner may still be saving
   * its new tokens; removing the grant and its consent is what kills those too, since bearer
   * tokens are honoured only while both exist (findOAuthGrantAccess).
   */
  async consume(id: string): Promise<void> {
    const { consumed, grantId } = await consumeOAuthModel(this.pool, this.model, this.key(id));
    if (consumed) return;
    if (grantId) {
      await inTransaction(this.pool, async (tx) => {
        await deleteOAuthConsentOfGrant(tx, grantId);
        await destroyOAuthGrant(tx, grantId);
      });
    }
    throw new errors.InvalidGrant(
      `${this.model === 'RefreshToken' ? 'refresh token' : 'authorization code'} already used`,
    );
  }

  async destroy(id: string): Promise<void> {
    await destroyOAuthModel(this.pool, this.model, this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await destroyOAuthModelsOfGrant(this.pool, this.model, grantId);
  }

  private key(id: string): string {
    return this.secretIds ? createHash('sha256').update(id, 'utf8').digest('hex') : id;
  }
}

export function postgresAdapterFactory(pool: Pool): (model: string) => Adapter {
  return (model) => new PostgresAdapter(pool, model);
}
