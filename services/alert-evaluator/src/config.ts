import {
  addressesSection,
  clickhouseSection,
  collectSections,
  listenSection,
  loggingSection,
  postgresSection,
  type Env,
} from '@framedeck/config';

export function loadEvaluatorConfig(source: Env = process.env) {
  return collectSections({
    health: () => listenSection(source, 'FRAMEDECK_EVALUATOR_HEALTH_PORT', 8083),
    postgres: () => postgresSection(source),
    clickhouse: () => clickhouseSection(source),
    addresses: () => addressesSection(source),
    logging: () => loggingSection(source),
  });
}
export type EvaluatorConfig = ReturnType<typeof loadEvaluatorConfig>;
