import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import CollapseIcon from '@mui/icons-material/KeyboardArrowUp';
import ExpandIcon from '@mui/icons-material/KeyboardArrowDown';
import UploadIcon from '@mui/icons-material/UploadFileOutlined';
import WarningIcon from '@mui/icons-material/WarningAmberOutlined';
import { isApiError } from '../../../api/client';
import type { AuditRead, AuditState, Machine } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate, formatDateTime } from '../../../components/format';
import { LoadingScreen } from '../../../components/loading-screen';
import { formatMoney } from '../../../components/money';
import { replyMessage } from '../../../components/server-list/server-list';
import { toast } from '../../../components/snackbar';
import type { I18nKey } from '../../../locales/keys';
import { useAudits, useReviewAudit, type AuditDecision } from '../api/audits';
import { FLAG, HeldReads, PreviewSummary } from './held-reads';
import { UploadAuditDialog } from './upload-audit-dialog';

const STATE: Record<AuditState, { label: I18nKey; color: ChipProps['color']; variant: ChipProps['variant'] }> = {
  baseline: { label: 'audits.stateBaseline', color: 'default', variant: 'outlined' },
  counted: { label: 'audits.stateCounted', color: 'success', variant: 'filled' },
  held: { label: 'audits.stateHeld', color: 'warning', variant: 'filled' },
  accepted: { label: 'audits.stateAccepted', color: 'success', variant: 'outlined' },
  rejected: { label: 'audits.stateRejected', color: 'error', variant: 'outlined' },
  reconcile: { label: 'audits.stateReconcile', color: 'info', variant: 'outlined' },
  late: { label: 'audits.stateLate', color: 'default', variant: 'outlined' },
  superseded: { label: 'audits.stateSuperseded', color: 'default', variant: 'outlined' },
};

/** The line ends of the form G85 matched, as people write them. */
const LINE_ENDS: Record<string, string> = { crlf: 'CR LF', lf: 'LF', cr: 'CR', mixed: 'CR LF + LF' };

const CHECKSUM: Record<string, { label: I18nKey; color: ChipProps['color'] }> = {
  ok: { label: 'audits.checksumOk', color: 'success' },
  bad: { label: 'audits.checksumBad', color: 'error' },
  absent: { label: 'audits.checksumAbsent', color: 'default' },
};

/** States whose read has no difference of its own to show (a baseline, a read older than the baseline). */
const NO_DIFFERENCE: AuditState[] = ['baseline', 'late'];

interface Pending {
  read: AuditRead;
  decision: AuditDecision;
}

/** The details of one read: its sales per selection, why it was held, the file's warnings. */
function ReadDetails({ read, money }: { read: AuditRead; money: (minor: number) => string }) {
  const { t, i18n } = useTranslation();
  return (
    <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, py: 2 }} data-testid="audit-details">
      <Box>
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          {t('audits.deltas')}
        </Typography>
        {read.deltas.length === 0 ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('audits.noDeltas')}
          </Typography>
        ) : (
          <Table size="small" data-testid="audit-deltas">
            <TableHead>
              <TableRow>
                <TableCell>{t('machines.selection')}</TableCell>
                <TableCell align="right">{t('audits.vends')}</TableCell>
                <TableCell align="right">{t('audits.value')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {read.deltas.map((delta) => (
                <TableRow key={delta.selection}>
                  <TableCell>{delta.selection}</TableCell>
                  <TableCell align="right">{delta.vends}</TableCell>
                  <TableCell align="right">{money(delta.value_minor)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Typography variant="caption" component="p" sx={{ mt: 1.5, color: 'text.secondary' }}>
          {t('audits.localDate')}: {formatDate(read.local_date, i18n.language)}
        </Typography>
        {read.reviewed_by && read.reviewed_at ? (
          <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }} data-testid="audit-reviewed">
            {t('audits.reviewed', { name: read.reviewed_by, date: formatDateTime(read.reviewed_at, i18n.language) })}
          </Typography>
        ) : null}
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {read.findings.length > 0 ? (
          <Box data-testid="audit-findings">
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              {t('audits.findings')}
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none', display: 'flex', flexDirection: 'column', gap: 1 }}>
              {read.findings.map((finding, index) => (
                <Box component="li" key={`${finding.flag}:${finding.selection ?? ''}:${index}`} sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
                  <Chip size="small" color={finding.holds ? 'warning' : 'info'} variant="outlined" label={FLAG[finding.flag] ? t(FLAG[finding.flag]) : finding.flag} />
                  <Typography variant="body2" component="span" sx={{ fontWeight: 600 }}>
                    {finding.selection ? `${t('machines.selection')} ${finding.selection}` : t('audits.allSelections')}
                  </Typography>
                  <Typography variant="body2" component="span" sx={{ color: 'text.secondary' }}>
                    {finding.reason}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Box>
        ) : null}
        {read.warnings.length > 0 ? (
          <Box data-testid="audit-warnings">
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              {t('audits.warningList')}
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {read.warnings.map((warning, index) => (
                <Typography component="li" variant="body2" key={`${index}:${warning}`}>
                  {warning}
                </Typography>
              ))}
            </Box>
          </Box>
        ) : null}
      </Box>
    </Box>
  );
}

/**
 * The machine's EVA-DTS audit reads, newest first: each with its difference from the previous
 * read; held reads can be accepted or rejected, and an audit file read by hand can be uploaded.
 */
export function AuditsTab({ machine }: { machine: Machine }) {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const canReview = can('settings.machines.edit');
  const reads = useAudits(machine.id);
  const review = useReviewAudit(machine.id);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  // The read asked about stays while the dialog closes, so its text does not change under the fade.
  const [pending, setPending] = useState<Pending | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [uploading, setUploading] = useState(false);
  const money = (minor: number) => formatMoney(minor, machine.currency, i18n.language, machine.decimal_places ?? 2);
  const columns = 7;

  const ask = (next: Pending) => {
    setPending(next);
    setConfirming(true);
  };

  const runReview = async () => {
    if (!pending) return;
    const { read, decision } = pending;
    try {
      const reply = await review.mutateAsync({ readId: read.id, decision });
      toast.success(replyMessage(reply) ?? t(decision === 'accept' ? 'success.auditAccepted' : 'success.auditRejected'));
    } catch (error) {
      if (isApiError(error) && error.status === 409) toast.error(t('audits.notHeld'));
      else toast.error(isApiError(error) && error.status !== 0 ? error.message : t('errors.auditReview'));
    } finally {
      setConfirming(false);
    }
  };

  const list = reads.data ?? [];
  // Oldest first: accepting an older one first keeps the newer ones' previews meaningful.
  const held = list.filter((read) => read.state === 'held').reverse();

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }} data-testid="audits-tab">
      <Alert severity="info" data-testid="audits-intro">
        {machine.sales_source === 'audit' ? t('audits.introAudit') : t('audits.introEvents')}
      </Alert>
      {held.length > 0 ? <HeldReads reads={held} canReview={canReview} money={money} onReview={(read, decision) => ask({ read, decision })} /> : null}
      <Card>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 2 }}>
          <Button variant="contained" startIcon={<UploadIcon />} onClick={() => setUploading(true)} data-testid="audit-upload">
            {t('audits.upload')}
          </Button>
        </Box>
        {!reads.data ? (
          reads.isError ? (
            <Alert severity="error" sx={{ m: 2 }} action={<Button color="inherit" size="small" onClick={() => void reads.refetch()}>{t('common.retry')}</Button>}>
              {t('errors.listFailed')}
            </Alert>
          ) : (
            <LoadingScreen inline />
          )
        ) : list.length === 0 ? (
          <Typography sx={{ py: 6, textAlign: 'center', color: 'text.secondary' }} data-testid="audits-empty">
            {t('audits.noReads')}
          </Typography>
        ) : (
          <TableContainer>
            <Table size="small" data-testid="audits-table">
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox" />
                  <TableCell>{t('audits.at')}</TableCell>
                  <TableCell>{t('audits.state')}</TableCell>
                  <TableCell align="right">{t('audits.vends')}</TableCell>
                  <TableCell align="right">{t('audits.value')}</TableCell>
                  <TableCell>{t('audits.checksum')}</TableCell>
                  <TableCell align="right">{t('audits.warnings')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.map((read) => {
                  const expanded = Boolean(open[read.id]);
                  const state = STATE[read.state] ?? STATE.baseline;
                  const checksum = CHECKSUM[read.checksum];
                  const noDifference = NO_DIFFERENCE.includes(read.state);
                  return (
                    <Fragment key={read.id}>
                      <TableRow hover data-testid="audit-row" data-state={read.state} sx={{ '& > td': { borderBottom: expanded ? 'none' : undefined } }}>
                        <TableCell padding="checkbox">
                          <IconButton
                            size="small"
                            aria-label={expanded ? t('audits.hideDetails') : t('audits.showDetails')}
                            aria-expanded={expanded}
                            onClick={() => setOpen((current) => ({ ...current, [read.id]: !expanded }))}
                            data-testid="audit-expand"
                          >
                            {expanded ? <CollapseIcon fontSize="small" /> : <ExpandIcon fontSize="small" />}
                          </IconButton>
                        </TableCell>
                        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(read.at, i18n.language)}</TableCell>
                        <TableCell>
                          <Chip size="small" color={state.color} variant={state.variant} label={t(state.label)} data-testid="audit-state" />
                        </TableCell>
                        <TableCell align="right" data-testid="audit-vends">
                          {noDifference ? '—' : read.vends}
                        </TableCell>
                        <TableCell align="right" data-testid="audit-value">
                          {noDifference ? '—' : money(read.value_minor)}
                        </TableCell>
                        <TableCell>
                          {checksum ? (
                            <Chip
                              size="small"
                              variant="outlined"
                              color={checksum.color}
                              label={read.checksum_line_ends ? t('audits.checksumForm', { state: t(checksum.label), form: LINE_ENDS[read.checksum_line_ends] ?? read.checksum_line_ends }) : t(checksum.label)}
                              data-testid="audit-checksum"
                            />
                          ) : (
                            read.checksum
                          )}
                        </TableCell>
                        <TableCell align="right">
                          {read.warnings.length > 0 ? (
                            <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color: 'warning.main' }}>
                              <WarningIcon sx={{ fontSize: 16 }} />
                              {read.warnings.length}
                            </Box>
                          ) : (
                            0
                          )}
                        </TableCell>
                      </TableRow>
                      <TableRow>
                        <TableCell colSpan={columns} sx={{ py: 0, ...(expanded ? {} : { borderBottom: 'none' }) }}>
                          <Collapse in={expanded} unmountOnExit>
                            <ReadDetails read={read} money={money} />
                          </Collapse>
                        </TableCell>
                      </TableRow>
                    </Fragment>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Card>
      <ConfirmDialog
        open={confirming}
        title={pending?.decision === 'accept' ? t('audits.acceptTitle') : t('audits.rejectTitle')}
        content={
          pending ? (
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
              <Typography variant="body2">{t(pending.decision === 'accept' ? 'audits.acceptConfirm' : 'audits.rejectConfirm')}</Typography>
              {pending.decision === 'accept' && pending.read.preview ? <PreviewSummary preview={pending.read.preview} money={money} /> : null}
            </Box>
          ) : (
            ''
          )
        }
        confirmLabel={pending?.decision === 'accept' ? t('audits.accept') : t('audits.reject')}
        confirmColor={pending?.decision === 'accept' ? 'primary' : 'error'}
        loading={review.isPending}
        onConfirm={() => void runReview()}
        onClose={() => setConfirming(false)}
      />
      {uploading ? <UploadAuditDialog machine={machine} onClose={() => setUploading(false)} /> : null}
    </Box>
  );
}
