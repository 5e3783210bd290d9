import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import AddIcon from '@mui/icons-material/Add';
import { usePermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { useSchedulerModules } from '../api/filters';
import { TasksTable } from '../components/tasks-table';
import { taskActions } from '../schedule-logic';

/** "New query": the module first (its address names it), then the form. */
function NewQueryButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const modules = useSchedulerModules();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button variant="contained" startIcon={<AddIcon />} onClick={(event) => setAnchor(event.currentTarget)} data-testid="new-query" aria-haspopup="menu">
        {t('queryScheduler.newQuery')}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {modules.isLoading ? <MenuItem disabled>{t('app.loading')}</MenuItem> : null}
        {modules.isError ? <MenuItem disabled>{t('queryScheduler.modulesFailed')}</MenuItem> : null}
        {(modules.data ?? []).map((option) => (
          <MenuItem key={option.key} onClick={() => navigate(paths.settings.createQuery(option.key))} data-testid={`new-query-${option.key}`}>
            {option.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** /settings/query-scheduler: the scheduled queries, pause/resume, send now, edit, delete. */
export default function QuerySchedulerPage() {
  const can = usePermission();
  return (
    <>
      <ScreenHeader action={taskActions(can).create ? <NewQueryButton /> : null} />
      <TasksTable />
    </>
  );
}
