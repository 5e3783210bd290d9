import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { OptionPicker } from '../../../components/fields';
import { formatCount, formatDateTime } from '../../../components/format';
import { ServerList } from '../../../components/server-list/server-list';
import { ListFilter } from '../../../components/server-list/list-filter';
import { useListState } from '../../../components/server-list/use-list-state';
import { useExits } from '../api/exits';
import { useAuditUsers } from '../api/filters';
import { EXIT_KINDS, type DataExit, type ExitKind } from '../api/types';
import { exitQuery, machinesCovered, spanProblem } from '../audit-logic';

const SORTABLE = { at: 'at' };
const FILTERS = ['kind', 'user_id', 'date_from', 'date_to'] as const;

const KIND_COLOR: Record<ExitKind, 'default' | 'info' | 'primary' | 'warning'> = {
  export: 'default',
  export_job: 'info',
  report_download: 'primary',
  mail: 'warning',
};

/** A day of the span (UTC), kept in the URL like the other filters. */
function DayInput({ label, value, onChange, error, testId }: { label: string; value: string; onChange: (value: string) => void; error?: string; testId: string }) {
  return (
    <TextField
      type="date"
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={Boolean(error)}
      helperText={error}
      sx={{ width: 170 }}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId } }}
    />
  );
}

/**
 * The audit trail: every time data left the system, newest first — when, who, how, the request or
 * report definition, the file, the machines it covered and to whom it went. Filters (how, who, the
 * span in UTC days), search and ordering are in the URL.
 */
export function ExitsTable() {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const list = useListState(FILTERS);
  const users = useAuditUsers();
  const problem = spanProblem(list.filters.date_from, list.filters.date_to);
  const exits = useExits(exitQuery(list.params, list.filters), problem === null);

  const columns: GridColDef<DataExit>[] = [
    { field: 'at', headerName: t('auditTrail.at'), minWidth: 130, flex: 0.8, valueFormatter: (value: string) => formatDateTime(value, language) },
    {
      field: 'user_name',
      headerName: t('auditTrail.who'),
      minWidth: 100,
      flex: 0.7,
      sortable: false,
      valueGetter: (_value, row) => row.user_name || t('auditTrail.goneUser'),
    },
    {
      field: 'kind',
      headerName: t('auditTrail.how'),
      minWidth: 120,
      flex: 0.7,
      sortable: false,
      renderCell: ({ row }) => <Chip size="small" variant="outlined" color={KIND_COLOR[row.kind] ?? 'default'} label={t(`auditTrail.kinds.${row.kind}`)} />,
    },
    {
      field: 'what',
      headerName: t('auditTrail.what'),
      minWidth: 160,
      flex: 1.4,
      sortable: false,
      renderCell: ({ row }) => (
        <Typography variant="caption" sx={{ py: 1, fontFamily: 'monospace', wordBreak: 'break-all' }}>
          {row.what}
        </Typography>
      ),
    },
    {
      field: 'file_name',
      headerName: t('auditTrail.file'),
      minWidth: 120,
      flex: 0.9,
      sortable: false,
      renderCell: ({ row }) => (
        <Typography variant="body2" sx={{ py: 1, wordBreak: 'break-all' }}>
          {row.file_name}
        </Typography>
      ),
    },
    {
      field: 'reach',
      headerName: t('auditTrail.machines'),
      minWidth: 100,
      flex: 0.6,
      sortable: false,
      valueGetter: (_value, row) => {
        const covered = machinesCovered(row.reach);
        return covered.all ? t('auditTrail.allMachines') : t('auditTrail.someMachines', { count: covered.count, formatted: formatCount(covered.count, language) });
      },
    },
    {
      field: 'recipients',
      headerName: t('auditTrail.toWhom'),
      minWidth: 120,
      flex: 0.9,
      sortable: false,
      renderCell: ({ row }) =>
        row.recipients && row.recipients.length > 0 ? (
          <Tooltip title={row.recipients.join(', ')}>
            <Box sx={{ py: 1, display: 'flex', flexDirection: 'column' }} data-testid="audit-recipients">
              {row.recipients.map((recipient) => (
                <Typography key={recipient} variant="body2" noWrap>
                  {recipient}
                </Typography>
              ))}
            </Box>
          </Tooltip>
        ) : (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('auditTrail.taker')}
          </Typography>
        ),
    },
    {
      field: 'rows',
      headerName: t('auditTrail.rows'),
      minWidth: 70,
      flex: 0.4,
      sortable: false,
      align: 'right',
      headerAlign: 'right',
      valueFormatter: (value: number | null | undefined) => (value === null || value === undefined ? '—' : formatCount(value, language)),
    },
  ];

  const problemText = problem ? t(`auditTrail.spanProblems.${problem}`) : undefined;
  const kinds = EXIT_KINDS.map((kind) => ({ id: kind, name: t(`auditTrail.kinds.${kind}`) }));

  return (
    <ServerList
      name="audit"
      list={list}
      query={exits}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={t('auditTrail.noRows')}
      rowLabel={(row) => row.file_name}
      autoRowHeight
      filters={
        <>
          <ListFilter list={list} filter="kind" label={t('auditTrail.how')} allLabel={t('auditTrail.allKinds')} options={kinds} testId="audit-kind-filter" />
          <Box sx={{ minWidth: 200 }}>
            <OptionPicker
              name="user_id"
              label={t('auditTrail.who')}
              noneLabel={t('auditTrail.allUsers')}
              value={list.filters.user_id}
              options={users.data ?? []}
              loading={users.isLoading}
              onChange={(id) => list.setFilter('user_id', id)}
              testId="audit-user-filter"
              size="small"
            />
          </Box>
          <DayInput label={t('auditTrail.from')} value={list.filters.date_from} onChange={(value) => list.setFilter('date_from', value)} error={problemText} testId="audit-date-from" />
          <DayInput label={t('auditTrail.to')} value={list.filters.date_to} onChange={(value) => list.setFilter('date_to', value)} testId="audit-date-to" />
        </>
      }
    />
  );
}
