import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { InboxGroup } from '../../../api/types';
import { formatCount, formatDateTime } from '../../../components/format';
import { NO_FIGURE } from '../../../components/reports/report-columns';
import { prettyBody } from '../data-sources-logic';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" component="dt" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography variant="body2" component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** A group of kept messages: what they have in common, why the latest was kept, and its body as it came (JSON laid out). */
export function SampleDialog({ group, onClose }: { group: InboxGroup; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="inbox-sample-title" data-testid="sample-dialog">
      <DialogTitle id="inbox-sample-title">
        {t('dataSources.sampleTitle', { reason: t(`dataSources.reasons.${group.reason}`) })}
      </DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <DialogContentText>{t('dataSources.sampleIntro', { count: group.count })}</DialogContentText>
        <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' } }}>
          <Fact label={t('dataSources.feed')}>{t(`dataSources.feeds.${group.feed}`)}</Fact>
          <Fact label={t('dataSources.nayaxMachineId')}>{group.nayax_machine_id || NO_FIGURE}</Fact>
          <Fact label={t('dataSources.productCode')}>{group.product_code || NO_FIGURE}</Fact>
          <Fact label={t('dataSources.count')}>{formatCount(group.count, i18n.language)}</Fact>
          <Fact label={t('dataSources.deliveries')}>{formatCount(group.deliveries, i18n.language)}</Fact>
          <Fact label={t('dataSources.firstSeen')}>{formatDateTime(group.first_seen, i18n.language)}</Fact>
          <Fact label={t('dataSources.lastSeen')}>{formatDateTime(group.last_seen, i18n.language)}</Fact>
          <Fact label={t('dataSources.messageId')}>{group.sample_message_id}</Fact>
        </Box>
        {group.sample_detail ? (
          <Alert severity="info" data-testid="sample-detail" sx={{ overflowWrap: 'anywhere' }}>
            {group.sample_detail}
          </Alert>
        ) : null}
        <Box
          component="pre"
          // A scrolling box without controls: reachable with the keyboard, and named.
          tabIndex={0}
          role="region"
          aria-label={t('dataSources.sampleBody')}
          data-testid="sample-body"
          sx={{ m: 0, p: 1.5, borderRadius: 1, bgcolor: 'action.hover', fontSize: 12, maxHeight: 420, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {prettyBody(group.sample_body)}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
