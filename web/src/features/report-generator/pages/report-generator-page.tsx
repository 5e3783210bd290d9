import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import AddIcon from '@mui/icons-material/Add';
import { useReportPermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { paths } from '../../../routes/paths';
import { ReportsTable } from '../components/reports-table';
import { TemplatesTable } from '../components/templates-table';

type TabName = 'reports' | 'templates';

/** Report generator: the reports (with their progress and files) and the templates, the tab in `?tab=`. */
export default function ReportGeneratorPage() {
  const { t } = useTranslation();
  const allowed = useReportPermission('report_generator');
  const [searchParams, setSearchParams] = useSearchParams();
  const canReports = allowed('reports_list');
  const canTemplates = allowed('templates_list');
  const requested: TabName = searchParams.get('tab') === 'templates' ? 'templates' : 'reports';
  const tab: TabName = requested === 'templates' ? (canTemplates ? 'templates' : 'reports') : canReports ? 'reports' : 'templates';
  // Another tab is another list: its paging, search and filters start over.
  const chooseTab = (next: TabName) => setSearchParams(next === 'templates' ? { tab: next } : {}, { replace: true });

  const action = allowed('new') || allowed('run') ? (
    <Button component={RouterLink} to={paths.report.createReport} variant="contained" startIcon={<AddIcon />} data-testid="new-report">
      {t('reportGenerator.newReport')}
    </Button>
  ) : null;

  return (
    <>
      <ScreenHeader action={action} />
      {canReports && canTemplates ? (
        <Box sx={{ mb: 3 }}>
          <Tabs value={tab} onChange={(_event, value: TabName) => chooseTab(value)}>
            <Tab value="reports" label={t('reportGenerator.tabReports')} data-testid="tab-reports" />
            <Tab value="templates" label={t('reportGenerator.tabTemplates')} data-testid="tab-templates" />
          </Tabs>
        </Box>
      ) : null}
      {!canReports && !canTemplates ? (
        <Alert severity="info" data-testid="report-generator-no-lists">
          {t('reportGenerator.noLists')}
        </Alert>
      ) : null}
      {tab === 'reports' && canReports ? <ReportsTable key="reports" /> : null}
      {tab === 'templates' && canTemplates ? <TemplatesTable key="templates" onRun={() => (canReports ? chooseTab('reports') : undefined)} /> : null}
    </>
  );
}
