import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import Stack from '@mui/material/Stack';
import { usePermission } from '../../../auth/use-permission';
import { ExportMenu } from '../../../components/export-menu';
import { FLEET_FILTERS, useReportFilters, type ReportControl } from '../../../components/report-filters/report-filter-state';
import { ReportScreen } from '../../../components/reports/report-screen';
import { ImportDialog } from '../components/import-dialog';
import { ImportsHistory } from '../components/imports-history';
import { MappingsTable } from '../components/mappings-table';
import { ReconciliationView } from '../components/reconciliation-view';
import { exportReconciliation } from '../api/settlements';
import { EXPORT_PERMISSION, LIST_PERMISSION, IMPORT_PERMISSION } from '../settlements-logic';

/** The reconciliation's filters: the period and the fleet pickers (machines with a terminal id). */
const CONTROLS: readonly ReportControl[] = ['period', ...FLEET_FILTERS];

/**
 * Card settlements: each machine-day's card sales against what the processors settled, the
 * payouts, the imported files and, for whoever imports, the import and the processors' mappings.
 */
export default function SettlementsPage() {
  const { t } = useTranslation();
  const can = usePermission();
  const state = useReportFilters(CONTROLS);
  const [importing, setImporting] = useState(false);
  const list = can(LIST_PERMISSION);
  const imports = can(IMPORT_PERMISSION);
  const exports = can(EXPORT_PERMISSION);
  const action =
    imports || exports ? (
      <Stack direction="row" spacing={1}>
        {exports ? <ExportMenu testId="settlements-export" disabled={state.problem !== null} onExport={(format) => exportReconciliation(format, state.query)} /> : null}
        {imports ? (
          <Button variant="contained" startIcon={<UploadIcon />} onClick={() => setImporting(true)} data-testid="settlement-import-open">
            {t('settlements.importFile')}
          </Button>
        ) : null}
      </Stack>
    ) : null;
  return (
    <ReportScreen name="settlements" state={state} action={action} exportOnly={exports && !list && !imports}>
      {list ? <ReconciliationView query={state.query} /> : null}
      {list ? <ImportsHistory /> : null}
      {imports ? <MappingsTable /> : null}
      {importing ? <ImportDialog onClose={() => setImporting(false)} /> : null}
    </ReportScreen>
  );
}
