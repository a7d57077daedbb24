import type { RouteDefinition } from '../http/route.js';
import {
  alertHistoryRoute,
  createAlertRuleRoute,
  disableAlertRuleRoute,
  getAlertRuleRoute,
  listAlertRulesRoute,
  updateAlertRuleRoute,
} from './alerts.route.js';
import { createApiKeyRoute, deactivateApiKeyRoute, listApiKeysRoute } from './api-keys.route.js';
import {
  createNotificationChannelRoute,
  deleteNotificationChannelRoute,
  listNotificationChannelsRoute,
} from './notification-channels.route.js';
import { listProjectsRoute, projectStatusRoute, updateProjectRoute } from './projects.route.js';
import { compareBuildsRoute, listBuildsRoute } from './builds.route.js';
import { deleteContentRoute, listContentRoute, listProjectContentRoute, upsertContentRoute } from './content.route.js';
import { dashboardRoute } from './dashboard.route.js';
import { eraseDataRoute, erasureStatusRoute } from './data-erasure.route.js';
import { exportDataRoute } from './data-export.route.js';
import { funnelRoute } from './funnels.route.js';
import { heatmapRoute } from './heatmap.route.js';
import { insightsRoute } from './insights.route.js';
import { deleteMapRoute, listMapsRoute, mapImageRoute, uploadMapRoute } from './maps.route.js';
import { queryRoute } from './query.route.js';
import { retentionRoute } from './retention.route.js';
import {
  createThresholdProfileRoute,
  deleteThresholdProfileRoute,
  listThresholdProfilesRoute,
  updateThresholdProfileRoute,
} from './threshold-profiles.route.js';
import { whoamiRoute } from './whoami.route.js';
import { worstAreasRoute } from './worst-areas.route.js';

/**
 * Every endpoint of the web API. Adding an endpoint = one route file + one line here; the
 * registry mounts it and the OpenAPI document lists it (services/api/README.md).
 */
export const API_ROUTES: readonly RouteDefinition[] = [
  whoamiRoute,
  listProjectsRoute,
  projectStatusRoute,
  updateProjectRoute,
  listApiKeysRoute,
  createApiKeyRoute,
  deactivateApiKeyRoute,
  uploadMapRoute,
  listMapsRoute,
  deleteMapRoute,
  mapImageRoute,
  heatmapRoute,
  worstAreasRoute,
  insightsRoute,
  dashboardRoute,
  listBuildsRoute,
  compareBuildsRoute,
  retentionRoute,
  funnelRoute,
  listContentRoute,
  listProjectContentRoute,
  upsertContentRoute,
  deleteContentRoute,
  exportDataRoute,
  eraseDataRoute,
  erasureStatusRoute,
  queryRoute,
  listAlertRulesRoute,
  createAlertRuleRoute,
  alertHistoryRoute,
  getAlertRuleRoute,
  updateAlertRuleRoute,
  disableAlertRuleRoute,
  listThresholdProfilesRoute,
  createThresholdProfileRoute,
  updateThresholdProfileRoute,
  deleteThresholdProfileRoute,
  listNotificationChannelsRoute,
  createNotificationChannelRoute,
  deleteNotificationChannelRoute,
];
