import type { components } from './generated/openapi';

/**
 * The API's response shapes, by the names the dashboard uses, all taken from the types generated
 * from the API's OpenAPI document (generated/openapi.ts): a change of shape in the API fails the
 * dashboard's type check instead of surfacing as a blank chart.
 */
type Schemas = components['schemas'];

export type HeatmapCell = Schemas['HeatmapCell'];
export type WorstArea = Schemas['WorstArea'];
export type AuthorizedApp = Schemas['AuthorizedApp'];
export type GameMap = Schemas['Map'];
export type Session = Schemas['DashboardSession'];
export type SessionUser = Session['user'];
export type BuildSummary = Schemas['Build'];
export type BuildComparison = Schemas['BuildComparison'];
export type BuildComparisonScope = BuildComparison['overall'];
export type BuildMetric = keyof BuildComparisonScope['metrics'];
export type BuildVerdict = BuildComparison['verdict'];
export type BuildCell = Schemas['BuildCell'];
export type BuildRegression = Schemas['BuildRegression'];
export type MetricStats = Schemas['BuildMetricStats'];
export type DashboardMetrics = Schemas['DashboardMetrics'];
export type FunnelResult = Schemas['Funnel'];
export type RetentionResult = Schemas['Retention'];
export type AlertRule = Schemas['AlertRule'];
export type AlertHistoryEntry = Schemas['AlertHistoryEntry'];
export type ThresholdProfile = Schemas['ThresholdProfile'];
