import type { BearerGrant, BearerTokenVerifier } from '../../../services/api/src/http/principal.js';

/** Stands in for the OAuth verifier: a token means whatever grant the test registers for it. */
export class FakeBearerVerifier implements BearerTokenVerifier {
  readonly tokens = new Map<string, BearerGrant>();

  async verify(token: string): Promise<BearerGrant | null> {
    return this.tokens.get(token) ?? null;
  }
}
