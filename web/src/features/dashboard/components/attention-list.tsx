import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import type { AttentionFinding, AttentionMachine } from '../../../api/types';
import { formatCount } from '../../../components/format';
import { formatEuros } from '../../../components/reports/sales-figures';
import { ATTENTION_PAGE_SIZE, attentionSummary, dashboardLinks, pageOf, REASON_COLOR } from '../dashboard-logic';

/** A finding with its amount, in the user's language ("Sold out: 3 selections", "Cash box: €250.00"). */
export function findingText(finding: AttentionFinding, t: TFunction, language: string): string {
  const amount = finding.amount ?? null;
  switch (finding.reason) {
    case 'offline':
      return amount === null ? t('dashboard.findings.never') : t('dashboard.findings.offline', { value: formatCount(amount, language) });
    case 'cash_box_full':
      return t('dashboard.findings.cash_box_full', { value: formatEuros(amount ?? 0, language) });
    default:
      return t(`dashboard.findings.${finding.reason}`, { count: amount ?? 0, value: formatCount(amount ?? 0, language) });
  }
}

/**
 * The machines needing attention in the server's order (most findings first), ten a page: name,
 * location and a chip a finding; each opens its machine.
 */
export function AttentionList({ machines }: { machines?: AttentionMachine[] }) {
  const { t, i18n } = useTranslation();
  const [requested, setPage] = useState(0);
  const summary = machines ? attentionSummary(machines) : [];
  const shown = pageOf(machines ?? [], requested);
  const total = machines?.length ?? 0;
  const language = i18n.language;
  return (
    <Card data-testid="dashboard-attention">
      <CardHeader title={t('dashboard.attention')} slotProps={{ title: { variant: 'h6', component: 'h2' } }} sx={{ pb: 1 }} />
      {summary.length ? (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, px: 2, pb: 1.5 }} data-testid="dashboard-attention-summary">
          {summary.map(({ reason, machines: count }) => (
            <Chip
              key={reason}
              variant="outlined"
              color={REASON_COLOR[reason]}
              data-testid={`dashboard-attention-summary-${reason}`}
              label={`${t(`dashboard.reasons.${reason}`)}: ${t('dashboard.machines', { count, value: formatCount(count, language) })}`}
            />
          ))}
        </Box>
      ) : null}
      {!machines ? (
        <Box sx={{ px: 2, pb: 2 }}>
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} variant="text" height={48} />
          ))}
        </Box>
      ) : machines.length === 0 ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, pb: 3, color: 'success.main' }} data-testid="dashboard-attention-empty">
          <CheckCircleOutlineIcon fontSize="small" />
          <Typography>{t('dashboard.nothingNeedsAttention')}</Typography>
        </Box>
      ) : (
        <>
        <List disablePadding sx={{ pb: 1 }} data-testid="dashboard-attention-list">
          {shown.rows.map((machine) => (
            <ListItem key={machine.machine_id} disablePadding divider data-testid="dashboard-attention-machine">
              <ListItemButton
                component={RouterLink}
                to={dashboardLinks.machine(machine.machine_id)}
                sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, py: 1.25 }}
              >
                <Box sx={{ width: { sm: 240 }, flexBasis: { xs: '100%', sm: 'auto' }, flexShrink: 0, minWidth: 0 }}>
                  <Typography variant="subtitle2" data-testid="dashboard-attention-name">
                    {machine.machine_name}
                  </Typography>
                  <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="dashboard-attention-location">
                    {machine.location_name || t('dashboard.noLocation')}
                  </Typography>
                </Box>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }}>
                  {machine.findings.map((finding) => (
                    <Chip
                      key={finding.reason}
                      size="small"
                      color={REASON_COLOR[finding.reason]}
                      variant="filled"
                      data-testid={`dashboard-finding-${finding.reason}`}
                      label={findingText(finding, t, language)}
                    />
                  ))}
                </Box>
              </ListItemButton>
            </ListItem>
          ))}
        </List>
        {shown.pages > 1 ? (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 1, px: 2, pb: 2 }}>
            <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="dashboard-attention-range">
              {t('dashboard.attentionRange', {
                from: formatCount(shown.page * ATTENTION_PAGE_SIZE + 1, language),
                to: formatCount(shown.page * ATTENTION_PAGE_SIZE + shown.rows.length, language),
                total: formatCount(total, language),
              })}
            </Typography>
            <Pagination
              count={shown.pages}
              page={shown.page + 1}
              onChange={(_event, page) => setPage(page - 1)}
              size="small"
              aria-label={t('dashboard.attentionPages')}
              data-testid="dashboard-attention-pages"
            />
          </Box>
        ) : null}
        </>
      )}
    </Card>
  );
}
