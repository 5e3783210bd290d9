import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import type { DataSource } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { InboxTable } from '../components/inbox-table';
import { SourceDialog } from '../components/source-dialog';
import { SourcesList } from '../components/sources-list';
import { IMPORT_PERMISSION } from '../import-logic';

const TABS = ['sources', 'inbox'] as const;
type TabName = (typeof TABS)[number];

/** The permission key of each tab. */
const TAB_KEY: Record<TabName, string> = { sources: 'settings.data_sources.list', inbox: 'settings.data_sources.inbox' };

/**
 * /settings/data-sources: the telemetry providers' feeds (Nayax Core's SQS queues) with their
 * health, created and edited in a dialog; and the inbox of messages kept unbooked (`?tab=inbox`).
 * "Import history" opens the history import (issue 49) for whoever may import.
 */
export default function DataSourcesPage() {
  const { t } = useTranslation();
  const can = usePermission();
  const [searchParams, setSearchParams] = useSearchParams();
  const [editing, setEditing] = useState<DataSource | 'new' | null>(null);
  const visible = TABS.filter((name) => can(TAB_KEY[name]));
  const requested = searchParams.get('tab') as TabName | null;
  const tab: TabName = requested && visible.includes(requested) ? requested : (visible[0] ?? 'sources');

  const creates = tab === 'sources' && can('settings.data_sources.new');
  const imports = can(IMPORT_PERMISSION);
  const action =
    creates || imports ? (
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {imports ? (
          <Button component={RouterLink} to={paths.settings.historyImport} variant="outlined" startIcon={<UploadIcon />} data-testid="import-history">
            {t('dataSources.imports.open')}
          </Button>
        ) : null}
        {creates ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')} data-testid="new-source">
            {t('dataSources.newSource')}
          </Button>
        ) : null}
      </Box>
    ) : null;

  return (
    <>
      <ScreenHeader action={action} />
      <Box sx={{ mb: 3 }}>
        <Tabs value={tab} onChange={(_event, value: TabName) => setSearchParams(value === 'sources' ? {} : { tab: value }, { replace: true })}>
          {visible.includes('sources') ? <Tab value="sources" label={t('dataSources.tabSources')} data-testid="tab-sources" /> : null}
          {visible.includes('inbox') ? <Tab value="inbox" label={t('dataSources.tabInbox')} data-testid="tab-inbox" /> : null}
        </Tabs>
      </Box>
      {tab === 'sources' ? (
        <>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 3 }}>
            {t('dataSources.intro')}
          </Typography>
          <SourcesList onEdit={setEditing} />
        </>
      ) : (
        <InboxTable />
      )}
      {editing ? (
        <SourceDialog
          key={editing === 'new' ? 'new' : `${editing.id}:${editing.version}`}
          source={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}
