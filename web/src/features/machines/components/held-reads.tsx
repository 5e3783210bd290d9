import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AuditFinding, AuditPreview, AuditRead } from '../../../api/types';
import { formatDateTime } from '../../../components/format';
import type { I18nKey } from '../../../locales/keys';
import type { AuditDecision } from '../api/audits';

/** The label of each finding's flag. */
export const FLAG: Record<string, I18nKey> = {
  counter_reset: 'audits.flagCounterReset',
  wrap: 'audits.flagWrap',
  negative_delta: 'audits.flagNegativeDelta',
  implausible_jump: 'audits.flagImplausibleJump',
  gap_in_reads: 'audits.flagGapInReads',
  bad_checksum: 'audits.flagBadChecksum',
  truncated: 'audits.flagTruncated',
  meter_reset: 'audits.flagMeterReset',
  board_change: 'audits.flagBoardChange',
  new_selection: 'audits.flagNewSelection',
};

/** What accepting a read books, as a sentence: the figures, or that it only starts a baseline. */
export function PreviewSummary({ preview, money }: { preview: AuditPreview; money: (minor: number) => string }) {
  const { t } = useTranslation();
  if (preview.new_baseline) {
    return (
      <Typography variant="body2" data-testid="held-preview">
        {t('audits.previewBaseline')}
      </Typography>
    );
  }
  return (
    <Box data-testid="held-preview">
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('audits.previewSales', { vends: preview.vends, value: money(preview.value_minor) })}
      </Typography>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
        {t('audits.previewSplit', { cash: money(preview.cash_minor), cashless: money(preview.cashless_minor) })}
      </Typography>
      {preview.free_vends + preview.test_vends > 0 ? (
        <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
          {t('audits.previewStock', { free: preview.free_vends, test: preview.test_vends })}
        </Typography>
      ) : null}
    </Box>
  );
}

/** The findings that hold a read, each with its reason. */
function Reasons({ findings }: { findings: AuditFinding[] }) {
  const { t } = useTranslation();
  return (
    <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 0.75 }}>
      {findings
        .filter((finding) => finding.holds)
        .map((finding, index) => (
          <Box component="li" key={`${finding.flag}:${finding.selection ?? ''}:${index}`} data-testid="held-reason">
            <Chip size="small" color="warning" variant="outlined" label={FLAG[finding.flag] ? t(FLAG[finding.flag]) : finding.flag} sx={{ mr: 1 }} />
            <Typography variant="body2" component="span" sx={{ color: 'text.secondary' }}>
              {finding.reason}
            </Typography>
          </Box>
        ))}
    </Box>
  );
}

interface Props {
  reads: AuditRead[];
  canReview: boolean;
  money: (minor: number) => string;
  onReview: (read: AuditRead, decision: AuditDecision) => void;
}

/**
 * The reads held for review: why each is held, what accepting it would book now (against the
 * machine's baseline as it stands), and the accept and discard actions.
 */
export function HeldReads({ reads, canReview, money, onReview }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <Card data-testid="held-reads">
      <CardHeader title={t('audits.heldTitle', { count: reads.length })} subheader={t('audits.heldHint')} />
      <TableContainer>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('audits.at')}</TableCell>
              <TableCell>{t('audits.heldWhy')}</TableCell>
              <TableCell>{t('audits.heldWouldBook')}</TableCell>
              {canReview ? <TableCell align="right">{t('common.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {reads.map((read) => (
              <TableRow key={read.id} data-testid="held-read" sx={{ verticalAlign: 'top' }}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(read.at, i18n.language)}</TableCell>
                <TableCell>
                  <Reasons findings={read.findings} />
                </TableCell>
                <TableCell>{read.preview ? <PreviewSummary preview={read.preview} money={money} /> : '—'}</TableCell>
                {canReview ? (
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Box sx={{ display: 'inline-flex', gap: 1 }}>
                      <Button size="small" variant="outlined" color="success" onClick={() => onReview(read, 'accept')} data-testid="audit-accept">
                        {t('audits.accept')}
                      </Button>
                      <Button size="small" variant="outlined" color="error" onClick={() => onReview(read, 'reject')} data-testid="audit-reject">
                        {t('audits.reject')}
                      </Button>
                    </Box>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Card>
  );
}
