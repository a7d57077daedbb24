export { ConfigError, collectSections, env, readEnv, recordingEnv, type Env } from './env.js';
export * from './sections.js';
export * from './kafka.section.js';
