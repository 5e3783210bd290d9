import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Report } from '../../../api/types';
import { isPreparing } from '../report-logic';

const COLOR = { queued: 'default', running: 'info', done: 'success', failed: 'error' } as const;

/** A report's status; while it is prepared, a bar with its progress; when it failed, why. */
export function ReportStatus({ report }: { report: Pick<Report, 'id' | 'status' | 'progress' | 'error' | 'rows'> }) {
  const { t, i18n } = useTranslation();
  const label = t(`reportGenerator.status.${report.status}`);
  const progress = Math.max(0, Math.min(100, Math.round(report.progress)));
  const chip = <Chip size="small" color={COLOR[report.status]} variant={report.status === 'queued' ? 'outlined' : 'filled'} label={label} />;
  return (
    <Box sx={{ width: 1, py: 1, display: 'flex', flexDirection: 'column', gap: 0.75 }} data-testid="report-status" data-status={report.status}>
      <Box>
        {report.status === 'failed' && report.error ? (
          <Tooltip title={report.error}>
            <span>{chip}</span>
          </Tooltip>
        ) : (
          chip
        )}
      </Box>
      {isPreparing(report.status) ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <LinearProgress
            variant={report.status === 'queued' ? 'indeterminate' : 'determinate'}
            value={progress}
            sx={{ flexGrow: 1, height: 6, borderRadius: 3 }}
            aria-label={t('reportGenerator.progressOf', { progress })}
          />
          <Typography variant="caption" sx={{ color: 'text.secondary', minWidth: 36, textAlign: 'right' }}>
            {new Intl.NumberFormat(i18n.language, { style: 'percent' }).format(progress / 100)}
          </Typography>
        </Box>
      ) : null}
      {report.status === 'failed' && report.error ? (
        <Typography variant="caption" sx={{ color: 'error.main' }} noWrap title={report.error}>
          {report.error}
        </Typography>
      ) : null}
    </Box>
  );
}
