export * from './alert-rule.model.js';
export * from './threshold-profile.model.js';
export * from './cell-evaluation.js';
export * from './notification-decision.js';
export * from './alert-notification.js';
export * from './profile-bundle.js';
