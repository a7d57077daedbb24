export { ApiKeyLookup, type ApiKeyLookupOptions } from './api-key-lookup.js';
export { createApiKey, PlanLimitError, type CreatedApiKey } from './api-keys.js';
export { bootstrapTenant, createProjectWithKeys, type BootstrapResult, type PlanId } from './provisioning.js';
export { TtlCache } from './ttl-cache.js';
