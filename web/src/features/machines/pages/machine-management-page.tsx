import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import AddIcon from '@mui/icons-material/Add';
import { usePermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { MachineTagsTable } from '../components/machine-tags-table';
import { MachinesTable } from '../components/machines-table';

type TabName = 'machines' | 'tags';

/** /settings/machine-management: machines and their tags, the tab kept in `?tab=`. */
export default function MachineManagementPage() {
  const { t } = useTranslation();
  const can = usePermission();
  const [searchParams, setSearchParams] = useSearchParams();
  const canTags = can('settings.machines.tags_list') || can('settings.machines.list');
  const tab: TabName = searchParams.get('tab') === 'tags' && canTags ? 'tags' : 'machines';

  const action = can('settings.machines.new') ? (
    <Button component={RouterLink} to={paths.settings.createMachine} variant="contained" startIcon={<AddIcon />} data-testid="new-machine">
      {t('machines.newMachine')}
    </Button>
  ) : null;

  return (
    <>
      <ScreenHeader action={action} />
      <Box sx={{ mb: 3 }}>
        <Tabs value={tab} onChange={(_event, value: TabName) => setSearchParams(value === 'machines' ? {} : { tab: value }, { replace: true })}>
          <Tab value="machines" label={t('machines.tabMachines')} data-testid="tab-machines" />
          {canTags ? <Tab value="tags" label={t('machines.tabTags')} data-testid="tab-tags" /> : null}
        </Tabs>
      </Box>
      {tab === 'machines' ? <MachinesTable /> : <MachineTagsTable />}
    </>
  );
}
