import { alertsApi } from '../api/alerts.api';
import { useSearchParam } from '../app/router';
import { PageHeader } from '../components/page-header';
import { Tabs } from '../components/tabs';
import { useApi } from '../hooks/use-api';
import { HistoryTab } from '../alerts/alert-history.tab';
import { RulesTab } from '../alerts/alert-rules.tab';
import { ChannelsTab } from '../alerts/notification-channels.tab';
import { ProfilesTab } from '../alerts/threshold-profiles.tab';

type Tab = 'rules' | 'history' | 'profiles' | 'channels';

export function AlertsPage({ projectId }: { projectId: string }) {
  const [tab, setTab] = useSearchParam('tab', 'rules') as [Tab, (t: string) => void];
  const channels = useApi((signal) => alertsApi.channels(projectId, signal), [projectId]);
  return (
    <>
      <PageHeader
        title="Alerts"
        description="Get told when a map gets worse: a rule fails when enough heatmap cells cross a threshold profile's limit."
      />
      <Tabs
        label="Alerts"
        value={tab}
        onChange={setTab}
        tabs={[
          { value: 'rules', label: 'Rules', render: () => <RulesTab projectId={projectId} channels={channels} /> },
          { value: 'history', label: 'History', render: () => <HistoryTab projectId={projectId} /> },
          { value: 'profiles', label: 'Profiles', render: () => <ProfilesTab projectId={projectId} /> },
          {
            value: 'channels',
            label: 'Channels',
            render: () => <ChannelsTab projectId={projectId} channels={channels} />,
          },
        ]}
      />
    </>
  );
}
