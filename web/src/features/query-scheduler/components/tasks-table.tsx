import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import WarningIcon from '@mui/icons-material/WarningAmberOutlined';
import SendIcon from '@mui/icons-material/SendOutlined';
import { usePermission } from '../../../auth/use-permission';
import { ServerList, type RowAction } from '../../../components/server-list/server-list';
import { ListFilter } from '../../../components/server-list/list-filter';
import { useListState } from '../../../components/server-list/use-list-state';
import { toast } from '../../../components/snackbar';
import { Spoken } from '../../../components/spoken';
import { paths } from '../../../routes/paths';
import type { Task } from '../../../api/types';
import { useModuleLabel } from '../../../components/report-definition/module-label';
import { useSchedulerModules } from '../api/filters';
import { useChangeTaskStatus, useDeleteTask, useSendNow, useTasks } from '../api/tasks';
import { cronExpression, describeCron, formatInZone } from '../cron-logic';
import { refusalReason, TASK_STATUSES, taskActions } from '../schedule-logic';

const SORTABLE = { name: 'name', next_run: 'next_run', created_at: 'created_at' };
const FILTERS = ['status', 'module'] as const;

/** A task the system paused (its template was deleted): a marker with the reason. */
function PausedBySystem({ reason }: { reason: string }) {
  const { t } = useTranslation();
  return (
    <Spoken text={`${t('queryScheduler.pausedBySystem')}: ${reason}`}>
      <Tooltip title={reason}>
        <Chip size="small" color="warning" variant="outlined" icon={<WarningIcon />} label={t('queryScheduler.pausedBySystem')} data-testid="task-paused-reason" />
      </Tooltip>
    </Spoken>
  );
}

/** Active or paused: a switch for whoever may change it, a chip for the others; why the system paused it. */
function StatusCell({ task, canChange, onChange }: { task: Task; canChange: boolean; onChange: (active: boolean) => void }) {
  const { t } = useTranslation();
  const active = task.status === 'active';
  const label = t(`queryScheduler.statuses.${task.status}`);
  const marker = task.paused_reason ? <PausedBySystem reason={task.paused_reason} /> : null;
  if (!canChange) {
    return (
      <Box sx={{ py: 1, display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}>
        <Chip size="small" variant="outlined" color={active ? 'success' : 'default'} label={label} />
        {marker}
      </Box>
    );
  }
  return (
    <Box sx={{ py: 1, display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}>
      <Tooltip title={active ? t('queryScheduler.pause') : t('queryScheduler.resume')}>
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <Switch
            size="small"
            checked={active}
            onChange={(event) => onChange(event.target.checked)}
            slotProps={{ input: { 'aria-label': `${active ? t('queryScheduler.pause') : t('queryScheduler.resume')}: ${task.name}` } }}
          />
          <Typography variant="body2">{label}</Typography>
        </Box>
      </Tooltip>
      {marker}
    </Box>
  );
}

/** The scheduled queries: when each runs (in words and next), in which zone, and who made it. */
export function TasksTable() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const can = usePermission();
  const allowed = taskActions(can);
  const list = useListState(FILTERS);
  const tasks = useTasks({ ...list.params, ...list.filters });
  const modules = useSchedulerModules();
  const moduleLabel = useModuleLabel(modules.data, true);
  const changeStatus = useChangeTaskStatus();
  const sendNow = useSendNow();
  const remove = useDeleteTask();
  const language = i18n.language;

  const setActive = async (task: Task, active: boolean) => {
    try {
      await changeStatus.mutateAsync({ id: task.id, status: active ? 'active' : 'paused' });
      toast.success(active ? t('queryScheduler.resumed', { name: task.name }) : t('queryScheduler.paused', { name: task.name }));
    } catch (error) {
      // A task paused because its template went cannot resume: the server says why.
      const reason = refusalReason(error);
      toast.error(reason ? t('queryScheduler.statusRefused', { reason }) : t('queryScheduler.statusFailed'));
    }
  };

  const send = async (task: Task) => {
    try {
      await sendNow.mutateAsync(task.id);
      // A paused task runs this once and stays paused: said from the task's status, never the reply's text.
      if (task.status === 'paused') toast.info(t('queryScheduler.sentOnce', { name: task.name }));
      else toast.success(t('queryScheduler.sending', { name: task.name }));
    } catch (error) {
      const reason = refusalReason(error);
      toast.error(reason ? t('queryScheduler.sendRefused', { reason }) : t('queryScheduler.sendFailed'));
    }
  };

  const columns: GridColDef<Task>[] = [
    { field: 'name', headerName: t('queryScheduler.name'), flex: 1, minWidth: 110 },
    { field: 'module', headerName: t('queryScheduler.module'), minWidth: 100, flex: 0.7, valueGetter: (_value, row) => moduleLabel(row.module) },
    {
      field: 'cron',
      headerName: t('queryScheduler.schedule'),
      sortable: false,
      flex: 1.2,
      minWidth: 140,
      valueGetter: (_value, row) => describeCron(row.cron, language) ?? cronExpression(row.cron),
      renderCell: ({ row }) => (
        <Box sx={{ py: 1, minWidth: 0 }}>
          <Typography variant="body2">{describeCron(row.cron, language) ?? t('queryScheduler.noWords')}</Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary', fontFamily: 'monospace' }}>
            {cronExpression(row.cron)}
          </Typography>
        </Box>
      ),
    },
    { field: 'time_zone', headerName: t('queryScheduler.timeZone'), minWidth: 105, flex: 0.7 },
    {
      field: 'next_run',
      headerName: t('queryScheduler.nextRun'),
      minWidth: 120,
      flex: 0.8,
      valueFormatter: (value: string | null, row) => (value ? formatInZone(value, row.time_zone, language, 'short') : '—'),
    },
    {
      field: 'status',
      headerName: t('common.status'),
      minWidth: 120,
      flex: 0.7,
      sortable: false,
      renderCell: ({ row }) => <StatusCell task={row} canChange={allowed.pauseResume} onChange={(active) => void setActive(row, active)} />,
    },
    { field: 'created_by', headerName: t('queryScheduler.createdBy'), minWidth: 90, flex: 0.6, valueGetter: (_value, row) => row.created_by.name },
  ];

  const actions: RowAction<Task>[] = [];
  if (allowed.sendNow) actions.push({ label: t('queryScheduler.sendNow'), icon: <SendIcon fontSize="small" />, onClick: (row) => void send(row) });
  if (allowed.edit) {
    actions.push({ label: t('common.edit'), icon: <EditIcon fontSize="small" />, onClick: (row) => navigate(paths.settings.editQuery(row.module, row.id)) });
  }

  const statuses = TASK_STATUSES.map((status) => ({ id: status, name: t(`queryScheduler.statuses.${status}`) }));
  const moduleOptions = (modules.data ?? []).map((option) => ({ id: option.key, name: option.label }));

  return (
    <ServerList
      name="query-schedulers"
      list={list}
      query={tasks}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={t('queryScheduler.noRows')}
      rowLabel={(row) => row.name}
      autoRowHeight
      filters={
        <>
          <ListFilter list={list} filter="status" label={t('common.status')} allLabel={t('queryScheduler.allStatuses')} options={statuses} testId="query-schedulers-status-filter" />
          <ListFilter list={list} filter="module" label={t('queryScheduler.module')} allLabel={t('queryScheduler.allModules')} options={moduleOptions} testId="query-schedulers-module-filter" />
        </>
      }
      actions={actions}
      deletion={
        allowed.delete
          ? {
              title: t('queryScheduler.deleteTitle'),
              confirmText: ([row]) => t('queryScheduler.deleteConfirm', { name: row?.name ?? '' }),
              remove: ([row]) => remove.mutateAsync(row.id),
              pending: remove.isPending,
              successText: () => t('queryScheduler.deleted'),
            }
          : undefined
      }
    />
  );
}
