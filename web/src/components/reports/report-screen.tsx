import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import type { ListFilter, ReportFilterState } from '../report-filters/report-filter-state';
import { ReportFilterBar } from '../report-filters/report-filter-bar';
import { ScreenHeader } from '../screen-header';

interface ReportScreenProps {
  /** Names the test ids (`${name}-span-problem`). */
  name: string;
  /** The screen's `useReportFilters(controls)`. */
  state: ReportFilterState;
  /** Pickers that take one id at a time. */
  single?: readonly ListFilter[];
  /** Beside the title (the export). */
  action?: ReactNode;
  /** Between the title and the filters (tabs). */
  before?: ReactNode;
  /** The user may export the report but see none of it: say so instead of an empty screen. */
  exportOnly?: boolean;
  /** The report; shown once its filters can be asked about (a custom span has its dates). */
  children: ReactNode;
}

/** A report screen: title and breadcrumbs, the filter bar, then the report's sections. */
export function ReportScreen({ name, state, single, action, before, exportOnly, children }: ReportScreenProps) {
  const { t } = useTranslation();
  return (
    <>
      <ScreenHeader action={action} />
      <Stack spacing={3}>
        {before}
        <ReportFilterBar state={state} single={single} />
        {state.problem ? (
          <Alert severity="info" data-testid={`${name}-span-problem`}>
            {t(`reports.${state.problem}`)}
          </Alert>
        ) : exportOnly ? (
          <Alert severity="info" data-testid={`${name}-export-only`}>
            {t('reports.exportOnly')}
          </Alert>
        ) : (
          children
        )}
      </Stack>
    </>
  );
}
