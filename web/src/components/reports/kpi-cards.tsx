import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Grid, { type GridProps } from '@mui/material/Grid';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import TrendingDownIcon from '@mui/icons-material/TrendingDown';
import TrendingFlatIcon from '@mui/icons-material/TrendingFlat';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import type { I18nKey } from '../../locales/keys';
import { Spoken } from '../spoken';
import { changeOf, formatChange, formatFigure, KPIS, type KpiKey, type Trend } from './sales-figures';

const TITLES: Record<KpiKey, I18nKey> = {
  sales_minor: 'sales.kpiSales',
  sales_excl_tax_minor: 'sales.kpiSalesExclTax',
  quantity: 'sales.kpiQuantity',
  cash_minor: 'sales.kpiCash',
  cashless_minor: 'sales.kpiCashless',
};

const TREND_TEXT: Record<Trend, I18nKey> = {
  up: 'sales.changeUp',
  down: 'sales.changeDown',
  flat: 'sales.changeFlat',
  new: 'sales.changeNew',
};

/** The same, naming what the figure is compared with (`{{against}}`). */
const TREND_AGAINST_TEXT: Record<Trend, I18nKey> = {
  up: 'sales.changeUpAgainst',
  down: 'sales.changeDownAgainst',
  flat: 'sales.changeFlatAgainst',
  new: 'sales.changeNewAgainst',
};

export const trendColor = (trend: Trend) => (trend === 'up' ? 'success.main' : trend === 'down' ? 'error.main' : 'text.secondary');

/**
 * The change of a figure, coloured by its direction, with a spoken description naming what it is
 * compared with (`against`, "yesterday until 9:00 AM"; the previous period by default).
 */
export function ChangeBadge({ current, previous, testId, against }: { current: number; previous: number; testId?: string; against?: string }) {
  const { t, i18n } = useTranslation();
  const change = changeOf(current, previous);
  const text = formatChange(change, i18n.language);
  const Icon = change.trend === 'up' ? TrendingUpIcon : change.trend === 'down' ? TrendingDownIcon : TrendingFlatIcon;
  const spoken = against ? t(TREND_AGAINST_TEXT[change.trend], { change: text, against }) : t(TREND_TEXT[change.trend], { change: text });
  return (
    <Spoken text={spoken}>
      <Box
        component="span"
        data-testid={testId}
        data-trend={change.trend}
        title={spoken}
        sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, color: trendColor(change.trend), fontWeight: 600, typography: 'body2' }}
      >
        <Icon fontSize="small" />
        <span>{text}</span>
      </Box>
    </Spoken>
  );
}

const CARD_SIZE = { xs: 12, sm: 6, md: 4, lg: 2.4 } as const;

/** A figure of the cards: its key in the totals, its title, and whether it is money. */
export interface KpiFigure<K extends string = KpiKey> {
  key: K;
  title: I18nKey;
  money: boolean;
}

/** The sales figures, in order. */
export const SALES_KPIS: readonly KpiFigure[] = KPIS.map(({ key, money }) => ({ key, money, title: TITLES[key] }));

export interface KpiCardsProps<K extends string = KpiKey> {
  total?: Record<K, number>;
  previous?: Record<K, number>;
  loading: boolean;
  /** The figures there are (the five sales figures by default)… */
  figures?: readonly KpiFigure<K>[];
  /** …and which of them show (all by default). */
  kpis?: readonly K[];
  /** The cards' test ids: `<prefix>-<figure>`, `<prefix>-<figure>-value`… */
  prefix?: string;
  /** The caption of the previous span's figure (`{{value}}`). */
  previousText?: I18nKey;
  /** Where each card leads (the report behind the figures); none for plain cards. */
  href?: string;
  size?: GridProps['size'];
  /** The compared span, formatted ("Oct 1 – 27, 2026"): the caption then reads "vs <span>: <value>". */
  compared?: string;
  /**
   * Several spans to compare with instead of `previous`, each a change and a caption
   * ("vs yesterday until 9:00 AM: €12.00"); test ids `<prefix>-<figure>-<key>-change`,
   * `<prefix>-<figure>-<key>-previous`.
   */
  comparisons?: readonly KpiComparison<K>[];
}

/** A span the figures are compared with: its name ("yesterday until 9:00 AM") and its figures. */
export interface KpiComparison<K extends string = KpiKey> {
  key: string;
  label: string;
  figures: Record<K, number>;
}

/** Sales, sales excl. tax, quantity, cash and cashless of the span (or `figures`), each against the span before. */
export function KpiCards<K extends string = KpiKey>({
  total,
  previous,
  loading,
  figures = SALES_KPIS as readonly KpiFigure<string>[] as readonly KpiFigure<K>[],
  kpis,
  prefix = 'kpi',
  previousText = 'sales.previous',
  href,
  size = CARD_SIZE,
  compared,
  comparisons,
}: KpiCardsProps<K>) {
  const { t, i18n } = useTranslation();
  const loaded = Boolean(total && (previous || comparisons) && !loading);
  return (
    <Grid container spacing={2} data-testid={prefix === 'kpi' ? 'sales-kpis' : `${prefix}s`}>
      {figures.filter(({ key }) => !kpis || kpis.includes(key)).map(({ key, money, title }) => {
        const body = (
          <>
            <Typography variant="subtitle2" sx={{ color: 'text.secondary' }}>
              {t(title)}
            </Typography>
            {total && loaded ? (
              <>
                <Typography variant="h5" component="p" sx={{ my: 0.5, whiteSpace: 'nowrap' }} data-testid={`${prefix}-${key}-value`}>
                  {formatFigure(total[key], money, i18n.language)}
                </Typography>
                {comparisons ? (
                  comparisons.map((comparison) => (
                    <Box key={comparison.key} sx={{ mt: 1 }} data-testid={`${prefix}-${key}-${comparison.key}`}>
                      <ChangeBadge current={total[key]} previous={comparison.figures[key]} against={comparison.label} testId={`${prefix}-${key}-${comparison.key}-change`} />
                      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }} data-testid={`${prefix}-${key}-${comparison.key}-previous`}>
                        {t('sales.previousVs', { range: comparison.label, value: formatFigure(comparison.figures[key], money, i18n.language) })}
                      </Typography>
                    </Box>
                  ))
                ) : previous ? (
                  <>
                    <ChangeBadge current={total[key]} previous={previous[key]} testId={`${prefix}-${key}-change`} />
                    <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 0.5 }} data-testid={`${prefix}-${key}-previous`}>
                      {compared
                        ? t('sales.previousVs', { range: compared, value: formatFigure(previous[key], money, i18n.language) })
                        : t(previousText, { value: formatFigure(previous[key], money, i18n.language) })}
                    </Typography>
                  </>
                ) : null}
              </>
            ) : (
              <>
                <Skeleton variant="text" sx={{ typography: 'h5' }} />
                {(comparisons ?? [null]).map((_comparison, index) => (
                  <Skeleton key={index} variant="text" width="60%" />
                ))}
              </>
            )}
          </>
        );
        return (
          <Grid key={key} size={size}>
            <Card sx={{ height: 1 }} data-testid={`${prefix}-${key}`}>
              {href ? (
                <CardActionArea component={RouterLink} to={href} sx={{ p: 2.5, height: 1 }} data-testid={`${prefix}-${key}-link`}>
                  {body}
                </CardActionArea>
              ) : (
                <Box sx={{ p: 2.5 }}>{body}</Box>
              )}
            </Card>
          </Grid>
        );
      })}
    </Grid>
  );
}
