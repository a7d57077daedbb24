export { runMain } from './run-main.js';
export { Shutdown } from './shutdown.js';
export {
  checkReadiness,
  closeServer,
  httpServerOptions,
  serveHealth,
  startHealthServer,
  type HealthChecks,
  type ReadinessReport,
} from './health.js';
export { PeriodicTask } from './periodic-task.js';
