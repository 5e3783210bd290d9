import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { VisitLine } from '../../../api/types';
import { formatDateTime } from '../../../components/format';
import { formatMoney } from '../../../components/money';
import { ReportDrawer, type RowDrawer } from '../../../components/reports/report-drawer';
import { explanationText, tubesGained } from '../visit-ledger-logic';
import { StatusChip, Variance } from './status-parts';

/** One step of the chain: its name, its figure and how it was arrived at. */
function Step({ label, value, detail, testId }: { label: string; value: ReactNode; detail?: string; testId: string }) {
  return (
    <>
      <Typography component="dt" variant="subtitle2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0 }} data-testid={testId}>
        <Typography component="div" variant="body2">
          {value}
        </Typography>
        {detail ? (
          <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
            {detail}
          </Typography>
        ) : null}
      </Box>
    </>
  );
}

/** What the line's status says before its explanations: nothing explains it, there was nothing to compare, or it matched. */
function StatusNotice({ line }: { line: VisitLine }) {
  const { t } = useTranslation();
  if (line.status === 'unexplained')
    return (
      <Alert severity="error" data-testid="visit-unexplained">
        {t('visitLedger.unexplainedAlert')}
      </Alert>
    );
  if (line.status === 'first') return <Alert severity="info">{t('visitLedger.firstAlert')}</Alert>;
  if (line.status === 'matched' && line.explanations.length === 0) return <Alert severity="success">{t('visitLedger.matchedAlert')}</Alert>;
  return null;
}

/**
 * A collection's explanation: the chain from the previous collection to this one (cash sales
 * since, the tubes before and after, what was counted, the variance) and each record that
 * explains the variance, in words.
 */
export function ExplanationDrawer({ drawer }: { drawer: RowDrawer<VisitLine> }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const line = drawer.row;
  if (!line) return null;
  const money = (minor: number | null | undefined) => (minor === null || minor === undefined ? t('visitLedger.noFigure') : formatMoney(minor, line.currency, language));
  const previous = line.previous;
  const previousText = previous
    ? previous.employee_name
      ? t('visitLedger.chainPreviousBy', { date: formatDateTime(previous.at, language), bag: previous.bag_no, employee: previous.employee_name })
      : t('visitLedger.chainPreviousValue', { date: formatDateTime(previous.at, language), bag: previous.bag_no })
    : t('visitLedger.chainNone');
  const tubes =
    line.tubes_before_minor === null || line.tubes_before_minor === undefined
      ? t('visitLedger.chainTubesUnknown', { found: money(line.tubes_minor), after: money(line.tubes_after_minor) })
      : t('visitLedger.chainTubesValue', { before: money(line.tubes_before_minor), found: money(line.tubes_minor), after: money(line.tubes_after_minor) });
  return (
    <ReportDrawer
      control={drawer}
      testId="visit-explanation"
      width={600}
      title={t('visitLedger.explanation')}
      subtitle={[line.machine_name, formatDateTime(line.at, language), line.employee_name || t('visitLedger.unknownEmployee'), `${t('visitLedger.bagNo')} ${line.bag_no}`].join(' · ')}
    >
      <div>
        <StatusChip status={line.status} />
      </div>
      <StatusNotice line={line} />
      <section aria-labelledby="visit-chain-title">
        <Typography variant="subtitle1" component="h3" id="visit-chain-title" sx={{ mb: 1 }}>
          {t('visitLedger.chain')}
        </Typography>
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(140px, max-content) 1fr' }, columnGap: 2, rowGap: 1.5 }} data-testid="visit-chain">
          <Step label={t('visitLedger.chainPrevious')} value={previousText} testId="visit-chain-previous" />
          <Step
            label={t('visitLedger.chainSales')}
            value={money(line.cash_sales_minor)}
            detail={line.sales_source === 'audit' ? t('visitLedger.chainSalesAudit') : t('visitLedger.chainSalesEvents')}
            testId="visit-chain-sales"
          />
          <Step label={t('visitLedger.chainTubes')} value={tubes} testId="visit-chain-tubes" />
          <Step label={t('visitLedger.chainCollected')} value={money(line.collected_minor)} testId="visit-chain-collected" />
          <Step
            label={t('visitLedger.chainCounted')}
            value={money(line.counted_minor)}
            detail={t('visitLedger.chainCountedValue', { bag: money(line.collected_minor), ejected: money(line.ejected_minor), gained: money(tubesGained(line)) })}
            testId="visit-chain-counted"
          />
          <Step label={t('visitLedger.chainVariance')} value={<Variance minor={line.variance_minor} currency={line.currency} />} detail={t('visitLedger.chainVarianceValue')} testId="visit-chain-variance" />
        </Box>
      </section>
      {line.explanations.length > 0 ? (
        <section aria-labelledby="visit-explanations-title">
          <Typography variant="subtitle1" component="h3" id="visit-explanations-title" sx={{ mb: 1 }}>
            {t('visitLedger.explanations')}
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 1.5 }} data-testid="visit-explanations">
            {line.explanations.map((explanation, index) => (
              <li key={`${explanation.kind}|${explanation.at}|${index}`} data-kind={explanation.kind} data-testid="visit-explanation-item">
                <Typography variant="body2">{explanationText(t, explanation, line.currency, language)}</Typography>
                {explanation.refs.length > 0 ? (
                  <Typography variant="caption" component="p" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
                    {t('visitLedger.refs', { refs: explanation.refs.join(', ') })}
                  </Typography>
                ) : null}
              </li>
            ))}
          </Box>
        </section>
      ) : null}
    </ReportDrawer>
  );
}
