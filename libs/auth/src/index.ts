export * from './scopes.js';
export { API_KEY_PREFIX, hashApiKey, issueApiKey, looksLikeApiKey, sameHash, type IssuedApiKey } from './api-key.js';
export { hashPassword, verifyPassword } from './password.js';
