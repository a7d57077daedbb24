export { createApiKey, PlanLimitError, type CreatedApiKey } from './api-keys.js';
export { bootstrapTenant, createProjectWithKeys, type BootstrapResult, type PlanId } from './provisioning.js';
