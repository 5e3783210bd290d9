import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { Query } from '../../../api/client';
import type { VatFigures, VatRate, VatRow } from '../../../api/types';
import { formatCount, formatDateRange } from '../../../components/format';
import { formatMoney, REPORT_CURRENCY } from '../../../components/money';
import { formatPercent } from '../../../components/percent';
import { reportColumns, type ReportColumns } from '../../../components/reports/report-columns';
import { EmptyReport, ReportFailure } from '../../../components/reports/report-notices';
import { StatCards } from '../../../components/reports/stat-cards';
import { SummaryTable } from '../../../components/reports/summary-table';
import { useVatReport } from '../api/vat';
import { groupName, VAT_GROUPS, vatRowId, type VatGroup } from '../vat-logic';

/** The rate, with "exempt" said for 0 %. */
function rateColumn<R extends { rate_bps: number }>(t: TFunction, language: string): GridColDef<R> {
  return {
    field: 'rate_bps',
    headerName: t('vat.rate'),
    type: 'number',
    flex: 1,
    minWidth: 130,
    valueFormatter: (value: number) => (value === 0 ? t('vat.exemptRate', { rate: formatPercent(0, language) }) : formatPercent(value, language)),
  };
}

/** Sold, gross, net and VAT: the figures of every table. */
function figureColumns<R extends VatFigures>(col: ReportColumns<R>, t: TFunction): GridColDef<R>[] {
  const wide = { flex: 1, minWidth: 120 };
  return [col.count('quantity', t('vat.quantity'), wide), col.money('gross_minor', t('vat.gross'), wide), col.money('net_minor', t('vat.net'), wide), col.money('vat_minor', t('vat.vat'), wide)];
}

const rateId = (row: VatRate) => String(row.rate_bps);

/** Rate, client, location or month: four buttons with their names, the chosen one pressed. */
function GroupToggle({ group, onChange }: { group: VatGroup; onChange: (group: VatGroup) => void }) {
  const { t } = useTranslation();
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={group}
      onChange={(_event, value: VatGroup | null) => {
        if (value) onChange(value);
      }}
      aria-labelledby="vat-group-label"
      data-testid="vat-group"
    >
      {VAT_GROUPS.map((value) => (
        <ToggleButton key={value} value={value} data-testid={`vat-group-${value}`} sx={{ py: 0.25 }}>
          {t(`vat.groups.${value}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

interface VatViewProps {
  query: Query;
  group: VatGroup;
  onGroup: (group: VatGroup) => void;
}

/** The period's VAT: totals (taxable and exempt apart), by rate, then by the chosen group and rate. */
export function VatView({ query, group, onGroup }: VatViewProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const report = useVatReport({ ...query, group });
  const money = (minor: number) => formatMoney(minor, REPORT_CURRENCY, language);
  const count = (value: number) => formatCount(value, language);
  if (report.isError) return <ReportFailure query={report} testId="vat-error" text={t('vat.loadFailed')} />;
  const data = report.data;
  const figures = (figures: VatFigures | undefined) => t('vat.netAndVat', { net: money(figures?.net_minor ?? 0), vat: money(figures?.vat_minor ?? 0) });
  const rateCol = reportColumns<VatRate>(language);
  const rowCol = reportColumns<VatRow>(language);
  const groupLabel = t(`vat.groups.${group}`);
  const rowColumns: GridColDef<VatRow>[] = [
    rowCol.text('name', groupLabel, { minWidth: 240, flex: 2, valueGetter: (_value, row) => groupName(row, group, language) ?? t(`vat.noGroup.${group}`) }),
    rateColumn<VatRow>(t, language),
    ...figureColumns(rowCol, t),
  ];
  return (
    <>
      {data ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="vat-span">
          {t('vat.span', { span: formatDateRange(data.date_from, data.date_to, language) })}
        </Typography>
      ) : null}
      {data && data.total.quantity === 0 && !report.isFetching ? <EmptyReport testId="vat-empty" title={t('vat.noSales')} /> : null}
      <StatCards
        testId="vat-total"
        loading={!data}
        stats={[
          { key: 'gross', label: t('vat.gross'), value: money(data?.total.gross_minor ?? 0), caption: t('vat.sold', { count: data?.total.quantity ?? 0, formatted: count(data?.total.quantity ?? 0) }) },
          { key: 'net', label: t('vat.net'), value: money(data?.total.net_minor ?? 0) },
          { key: 'vat', label: t('vat.vat'), value: money(data?.total.vat_minor ?? 0) },
          { key: 'taxable', label: t('vat.taxable'), value: money(data?.taxable.gross_minor ?? 0), caption: figures(data?.taxable) },
          { key: 'exempt', label: t('vat.exempt'), value: money(data?.exempt.gross_minor ?? 0), caption: t('vat.exemptCaption') },
        ]}
      />
      {data && data.legacy_sales > 0 ? (
        <Alert severity="info" data-testid="vat-legacy">
          {t('vat.legacy', { count: data.legacy_sales, formatted: count(data.legacy_sales) })}
        </Alert>
      ) : null}
      <SummaryTable
        testId="vat-by-rate"
        title={t('vat.byRate')}
        subheader={t('vat.byRateHint')}
        rows={data?.by_rate ?? []}
        getRowId={rateId}
        columns={[rateColumn<VatRate>(t, language), ...figureColumns(rateCol, t)]}
        loading={report.isFetching}
        noRowsLabel={t('vat.noSales')}
      />
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="subtitle2" component="span" id="vat-group-label">
          {t('vat.groupBy')}
        </Typography>
        <GroupToggle group={group} onChange={onGroup} />
      </Stack>
      {group === 'rate' ? null : (
        <SummaryTable
          testId="vat-groups"
          title={t('vat.byGroup', { group: groupLabel.toLowerCase() })}
          subheader={t('vat.byGroupHint')}
          rows={data?.group === group ? data.rows : []}
          getRowId={vatRowId}
          columns={rowColumns}
          loading={report.isFetching}
          noRowsLabel={t('vat.noSales')}
          pageSize={25}
        />
      )}
    </>
  );
}
