import { http } from './http-client';
import type { AlertHistoryEntry, AlertRule, ThresholdProfile } from './api-types';
import type { operations } from './generated/openapi';
import { enc } from './projects.api';

export type { AlertHistoryEntry, AlertRule, ThresholdProfile } from './api-types';

type JsonBody<Op extends keyof operations> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

export type AlertMetric = AlertRule['metric'];
export type ThresholdLevel = AlertRule['thresholdLevel'];
export type AlertStatus = AlertHistoryEntry['status'];
export type NewAlertRule = JsonBody<'createAlertRule'>;
export type AlertRulePatch = JsonBody<'updateAlertRule'>;
export type ThresholdProfileBody = JsonBody<'createThresholdProfile'>;
export type ThresholdProfilePatch = JsonBody<'updateThresholdProfile'>;

export type NotificationChannel = {
  id: string;
  name: string;
  type: 'webhook' | 'slack';
  target: string;
  createdAt: string;
};
export type NewChannel = { type: 'webhook' | 'slack'; name: string; url: string };

export const ALERT_METRIC_LABELS: Record<AlertMetric, string> = {
  fps: 'FPS',
  frame_time: 'Frame time (ms)',
  memory: 'Memory (MB)',
  gpu_time: 'GPU time (ms)',
  p99_frame_time: 'p99 frame time (ms)',
  hitch_share_33ms: 'Frames over 33.3 ms (%)',
  hitch_share_50ms: 'Frames over 50 ms (%)',
};

const base = (projectId: string) => `/v1/projects/${enc(projectId)}`;

export const alertsApi = {
  rules: (projectId: string, signal?: AbortSignal) =>
    http.request<AlertRule[]>(`${base(projectId)}/alerts`, { signal }),
  create: (projectId: string, rule: NewAlertRule) =>
    http.request<AlertRule>(`${base(projectId)}/alerts`, { method: 'POST', body: rule }),
  update: (projectId: string, alertId: string, patch: AlertRulePatch) =>
    http.request<AlertRule>(`${base(projectId)}/alerts/${enc(alertId)}`, { method: 'PATCH', body: patch }),
  setActive: (projectId: string, alertId: string, isActive: boolean) =>
    isActive
      ? alertsApi.update(projectId, alertId, { isActive: true })
      : http.request<AlertRule>(`${base(projectId)}/alerts/${enc(alertId)}`, { method: 'DELETE' }),
  history: (projectId: string, query: { cursor?: string | undefined; limit?: number }, signal?: AbortSignal) =>
    http.request<{ items: AlertHistoryEntry[]; nextCursor: string | null }>(`${base(projectId)}/alerts/history`, {
      query,
      signal,
    }),
  channels: (projectId: string, signal?: AbortSignal) =>
    http.request<NotificationChannel[]>(`${base(projectId)}/notification-channels`, { signal }),
  createChannel: (projectId: string, channel: NewChannel) =>
    http.request<{ channel: NotificationChannel; secret: string | null }>(`${base(projectId)}/notification-channels`, {
      method: 'POST',
      body: channel,
    }),
  deleteChannel: (projectId: string, channelId: string) =>
    http.request<{ id: string }>(`${base(projectId)}/notification-channels/${enc(channelId)}`, { method: 'DELETE' }),
  thresholdProfiles: (projectId: string, signal?: AbortSignal) =>
    http.request<ThresholdProfile[]>(`${base(projectId)}/threshold-profiles`, { signal }),
  createThresholdProfile: (projectId: string, profile: ThresholdProfileBody) =>
    http.request<ThresholdProfile>(`${base(projectId)}/threshold-profiles`, { method: 'POST', body: profile }),
  updateThresholdProfile: (projectId: string, profileId: string, patch: ThresholdProfilePatch) =>
    http.request<ThresholdProfile>(`${base(projectId)}/threshold-profiles/${enc(profileId)}`, {
      method: 'PATCH',
      body: patch,
    }),
  deleteThresholdProfile: (projectId: string, profileId: string) =>
    http.request<{ id: string }>(`${base(projectId)}/threshold-profiles/${enc(profileId)}`, { method: 'DELETE' }),
};
