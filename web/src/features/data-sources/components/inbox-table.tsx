import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import ReplayIcon from '@mui/icons-material/Replay';
import ViewIcon from '@mui/icons-material/VisibilityOutlined';
import type { InboxGroup, RetakeForm } from '../../../api/types';
import { actionsColumn } from '../../../components/reports/actions-column';
import { QueryTable } from '../../../components/reports/query-table';
import { NO_FIGURE, reportColumns } from '../../../components/reports/report-columns';
import { RowAction } from '../../../components/reports/row-action';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import { useInbox, useRetake } from '../api/inbox';
import { inboxRowId } from '../data-sources-logic';
import { SampleDialog } from './sample-dialog';

/**
 * The messages kept unbooked, grouped alike (reason, feed, Nayax machine id, product code), the
 * latest seen first: each group's sample to read, and "Take again" for a machine's messages or
 * for all of them; the reply's counts in a snackbar.
 */
export function InboxTable() {
  const { t, i18n } = useTranslation();
  const inbox = useInbox();
  const retake = useRetake();
  const [sample, setSample] = useState<InboxGroup | null>(null);
  /** What is being taken again: a Nayax machine id, or '' for all. */
  const [taking, setTaking] = useState<string | null>(null);
  const col = reportColumns<InboxGroup>(i18n.language);
  const rows = inbox.data ?? [];

  /** Names a group in its buttons' labels: "Unknown machine, Nayax machine 942001". */
  const groupLabel = (group: InboxGroup) =>
    [
      t(`dataSources.reasons.${group.reason}`),
      group.nayax_machine_id ? t('dataSources.machineLabel', { id: group.nayax_machine_id }) : null,
      group.product_code ? t('dataSources.productLabel', { code: group.product_code }) : null,
    ]
      .filter(Boolean)
      .join(', ');

  const takeAgain = async (form: RetakeForm) => {
    setTaking(form.nayax_machine_id ?? '');
    try {
      const counts = await retake.mutateAsync(form);
      toast.success(t('dataSources.retaken', counts));
    } catch {
      toast.error(t('dataSources.retakeFailed'));
    } finally {
      setTaking(null);
    }
  };

  const columns: GridColDef<InboxGroup>[] = [
    col.text('reason', t('dataSources.reason'), { minWidth: 170, valueGetter: (_value, row) => t(`dataSources.reasons.${row.reason}`) }),
    col.text('feed', t('dataSources.feed'), { minWidth: 110, flex: 0.6, valueGetter: (_value, row) => t(`dataSources.feeds.${row.feed}`) }),
    col.text('nayax_machine_id', t('dataSources.nayaxMachineId'), { minWidth: 140, valueGetter: (_value, row) => row.nayax_machine_id || NO_FIGURE }),
    col.text('product_code', t('dataSources.productCode'), { minWidth: 110, flex: 0.7, valueGetter: (_value, row) => row.product_code || NO_FIGURE }),
    col.count('count', t('dataSources.count'), { minWidth: 100 }),
    col.dateTime('last_seen', t('dataSources.lastSeen'), { minWidth: 160 }),
    actionsColumn<InboxGroup>(t('common.actions'), (row) => (
      <>
        <RowAction label={t('dataSources.viewSample')} name={groupLabel(row)} icon={<ViewIcon fontSize="small" />} onClick={() => setSample(row)} testId="inbox-sample" />
        {row.nayax_machine_id ? (
          <RowAction
            label={t('dataSources.takeAgain')}
            name={groupLabel(row)}
            icon={<ReplayIcon fontSize="small" />}
            onClick={() => void takeAgain({ nayax_machine_id: row.nayax_machine_id })}
            disabled={taking !== null}
            testId="inbox-retake"
          />
        ) : null}
      </>
    )),
  ];

  return (
    <>
      <QueryTable
        testId="inbox"
        title={t('dataSources.inboxTitle')}
        action={
          <Button
            variant="outlined"
            size="small"
            startIcon={<ReplayIcon />}
            onClick={() => void takeAgain({})}
            loading={taking === ''}
            disabled={rows.length === 0 || taking !== null}
            data-testid="inbox-retake-all"
          >
            {t('dataSources.takeAllAgain')}
          </Button>
        }
        subheader={
          <>
            {t('dataSources.inboxHint')}{' '}
            <Link component={RouterLink} to={paths.settings.machineManagement}>
              {t('dataSources.openMachines')}
            </Link>
          </>
        }
        query={inbox}
        columns={columns}
        getRowId={inboxRowId}
        noRowsLabel={t('dataSources.noKept')}
        failed={t('dataSources.inboxFailed')}
      />
      {sample ? <SampleDialog group={sample} onClose={() => setSample(null)} /> : null}
    </>
  );
}
