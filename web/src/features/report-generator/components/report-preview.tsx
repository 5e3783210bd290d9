import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { formatCount } from '../../../components/format';
import { failureText } from '../../../components/server-errors';
import { RetryAlert } from '../../../components/retry-alert';
import { usePreview } from '../api/reports';
import type { GenerateInput } from '../report-logic';

interface Props {
  /** The definition to show the first rows of; null while it cannot be asked about (no module, a custom period without dates). */
  input: GenerateInput | null;
  /** Why there is nothing to ask about yet. */
  waiting: string;
}

/** The first rows the file would hold, as the server formats them, following the form (debounced by the caller). */
export function ReportPreview({ input, waiting }: Props) {
  const { t, i18n } = useTranslation();
  const preview = usePreview(input);
  const data = input ? preview.data : undefined;

  let body;
  if (!input) {
    body = <Alert severity="info">{waiting}</Alert>;
  } else if (preview.isError) {
    body = (
      <RetryAlert testId="report-preview-error" onRetry={() => void preview.refetch()}>
        {failureText(preview.error, t('reportGenerator.previewFailed'))}
      </RetryAlert>
    );
  } else if (!data) {
    body = <Skeleton variant="rounded" height={160} />;
  } else if (data.rows.length === 0) {
    body = (
      <Alert severity="info" data-testid="report-preview-empty">
        {t('reportGenerator.previewEmpty')}
      </Alert>
    );
  } else {
    body = (
      <Box
        // A scrolling box: focusable, so the keyboard scrolls it too.
        tabIndex={0}
        role="region"
        aria-label={t('reportGenerator.preview')}
        sx={{ overflow: 'auto', maxHeight: 440, border: 1, borderColor: 'divider', borderRadius: 1 }}
      >
        <Table size="small" stickyHeader data-testid="report-preview-table">
          <TableHead>
            <TableRow>
              {data.header.map((title, index) => (
                <TableCell key={index} sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                  {title}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {data.rows.map((row, rowIndex) => (
              <TableRow key={rowIndex} hover>
                {row.map((cell, index) => (
                  <TableCell key={index} sx={{ whiteSpace: 'nowrap' }}>
                    {cell}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    );
  }

  const subheader = data
    ? t('reportGenerator.previewCount', { shown: formatCount(data.rows.length, i18n.language), total: formatCount(data.total_rows, i18n.language), count: data.total_rows })
    : t('reportGenerator.previewHint');

  return (
    <Card data-testid="report-preview" aria-busy={preview.isFetching}>
      <CardHeader title={t('reportGenerator.preview')} subheader={subheader} />
      <Box sx={{ height: 4 }}>{input && preview.isFetching ? <LinearProgress aria-label={t('app.loading')} /> : null}</Box>
      <Box sx={{ p: 3, pt: 1 }}>{body}</Box>
    </Card>
  );
}
