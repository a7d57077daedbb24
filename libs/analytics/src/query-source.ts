/**
 * Where an analytics answer comes from: `rollups` (clickhouse/007 and the set rollups 003/004:
 * what the API serves) or `events`, the plain query over raw events that the tests hold every
 * rollup-served answer equal to.
 */
export type QuerySource = 'rollups' | 'events';
