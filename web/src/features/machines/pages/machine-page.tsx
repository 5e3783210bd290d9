import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { usePermission } from '../../../auth/use-permission';
import { LoadingScreen } from '../../../components/loading-screen';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { useMachine } from '../api/machines';
import { AnomaliesTab } from '../components/anomalies-tab';
import { AuditsTab } from '../components/audits-tab';
import { MachineSettingsTab } from '../components/machine-settings-tab';
import { OverviewTab } from '../components/overview-tab';
import { PlanogramTab } from '../components/planogram-tab';
import { RefillsTab } from '../components/refills-tab';

const TABS = ['overview', 'products', 'settings', 'refills', 'audits', 'anomalies'] as const;
type TabName = (typeof TABS)[number];

/** The permission a tab needs besides seeing the machine. */
const TAB_PERMISSION: Partial<Record<TabName, string>> = {
  settings: 'settings.machines.edit',
  refills: 'reports.refill_log.list',
  audits: 'settings.machines.read_eva_dts',
  anomalies: 'settings.machines.edit',
};

/** /settings/machine-management/{machineId}/{tab}. */
export default function MachinePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const { machineId = '', tab: requested } = useParams();
  const machine = useMachine(machineId);
  const visible = TABS.filter((name) => {
    const permission = TAB_PERMISSION[name];
    return !permission || can(permission);
  });
  const tab: TabName = visible.includes(requested as TabName) ? (requested as TabName) : 'overview';
  const labels: Record<TabName, string> = {
    overview: t('machines.tabOverview'),
    products: t('machines.tabProducts'),
    settings: t('machines.tabSettings'),
    refills: t('machines.tabRefills'),
    audits: t('machines.tabAudits'),
    anomalies: t('machines.tabAnomalies'),
  };

  return (
    <>
      <ScreenHeader title={machine.data?.name} />
      {!machine.data ? (
        machine.isError ? null : <LoadingScreen inline />
      ) : (
        <>
          <Box sx={{ mb: 3 }}>
            <Tabs variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile value={tab} onChange={(_event, value: TabName) => navigate(paths.settings.machine(machineId, value), { replace: true })}>
              {visible.map((name) => (
                <Tab key={name} value={name} label={labels[name]} data-testid={`machine-tab-${name}`} />
              ))}
            </Tabs>
          </Box>
          {tab === 'overview' ? <OverviewTab machine={machine.data} /> : null}
          {tab === 'products' ? <PlanogramTab machine={machine.data} /> : null}
          {tab === 'settings' ? <MachineSettingsTab key={`${machine.data.id}:${machine.data.version}`} machine={machine.data} /> : null}
          {tab === 'refills' ? <RefillsTab machine={machine.data} /> : null}
          {tab === 'audits' ? <AuditsTab machine={machine.data} /> : null}
          {tab === 'anomalies' ? <AnomaliesTab machine={machine.data} /> : null}
        </>
      )}
    </>
  );
}
