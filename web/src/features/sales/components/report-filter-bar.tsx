// The filter bar of the report screens: period (with its own dates when custom), grouping, value
// and the fleet and product pickers. Its state is the URL's query string (`useReportFilters`).
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import RestartIcon from '@mui/icons-material/RestartAlt';
import type { Option } from '../../../api/types';
import { optionOf } from '../../../components/fields';
import {
  GROUP_BYS,
  GROUPING_PERIODS,
  PERIODS,
  VALUES,
  type ListFilter,
  type ReportFilterState,
  type ReportFilters,
} from '../../../components/report-filters/report-filter-state';
import type { I18nKey } from '../../../locales/keys';
import { useClientOptions, useRegions } from '../../fleet/api/filters';
import { useLocationOptions, useMachineOptions, useMachineTagOptions, useProductOptions } from '../../machines/api/filters';
import { useProductTagOptions } from '../../products/api/products';
import { usePeriodPresets, useReportChoices, type CHOICE_ENDPOINTS } from '../api/filters';
import { formatPeriodDate } from '../sales-logic';

interface Choice {
  id: string;
  label: string;
  detail?: string;
}

interface ChoiceSelectProps {
  label: string;
  value: string;
  choices: Choice[];
  onChange: (value: string) => void;
  testId: string;
}

/** One of a fixed list (period, group by, grouping period, value). */
function ChoiceSelect({ label, value, choices, onChange, testId }: ChoiceSelectProps) {
  return (
    <TextField
      select
      fullWidth
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{ select: { SelectDisplayProps: { 'data-testid': testId } as object, renderValue: (id) => choices.find((c) => c.id === id)?.label ?? String(id) } }}
    >
      {choices.map((choice) => (
        <MenuItem key={choice.id} value={choice.id} data-testid={`${testId}-${choice.id}`}>
          <ListItemText primary={choice.label} secondary={choice.detail} sx={{ my: 0 }} />
        </MenuItem>
      ))}
    </TextField>
  );
}

interface MultiPickerProps {
  label: string;
  value: string[];
  options: Option[];
  loading: boolean;
  onChange: (ids: string[]) => void;
  testId: string;
}

/** Any number of ids among id + name options; none means all. */
function MultiPicker({ label, value, options, loading, onChange, testId }: MultiPickerProps) {
  const { t } = useTranslation();
  const chosen = value.map((id) => optionOf(id, options));
  return (
    <Autocomplete
      multiple
      size="small"
      limitTags={1}
      options={options}
      value={chosen}
      loading={loading}
      disableCloseOnSelect
      noOptionsText={t('reports.noOptions')}
      getOptionLabel={(option) => option.name}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      onChange={(_event, next) => onChange(next.map((option) => option.id))}
      renderValue={(selected, getItemProps) =>
        selected.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option.name} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={value.length === 0 ? t('reports.all') : undefined}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': testId } }}
        />
      )}
    />
  );
}

/** The choices of a fixed list, in the order the server gives (its ids we know), labelled in the UI language. */
function useChoices<T extends string>(kind: keyof typeof CHOICE_ENDPOINTS, known: readonly T[], label: (id: T) => string): Choice[] {
  const served = useReportChoices(kind).data;
  const ids = served?.length ? served.map((option) => option.id).filter((id): id is T => known.includes(id as T)) : [...known];
  return (ids.length ? ids : [...known]).map((id) => ({ id, label: label(id) }));
}

const PICKERS: { name: ListFilter; label: I18nKey }[] = [
  { name: 'clients', label: 'reports.clients' },
  { name: 'locations', label: 'reports.locations' },
  { name: 'regions', label: 'reports.regions' },
  { name: 'machine_tags', label: 'reports.machineTags' },
  { name: 'machines', label: 'reports.machines' },
  { name: 'products', label: 'reports.products' },
  { name: 'product_tags', label: 'reports.productTags' },
];

const asOptions = (names: string[] | undefined): Option[] => (names ?? []).map((name) => ({ id: name, name }));

/** The report filter bar; `state` is the screen's `useReportFilters()`. */
export function ReportFilterBar({ state }: { state: ReportFilterState }) {
  const { t, i18n } = useTranslation();
  const { filters, setFilters, problem } = state;
  const language = i18n.language;

  const presets = usePeriodPresets().data ?? [];
  const clients = useClientOptions();
  const locations = useLocationOptions();
  const regions = useRegions();
  const machineTags = useMachineTagOptions();
  const machines = useMachineOptions();
  const products = useProductOptions();
  const productTags = useProductTagOptions();
  const lists: Record<ListFilter, { data?: Option[]; isLoading: boolean }> = {
    clients,
    locations,
    regions: { data: asOptions(regions.data), isLoading: regions.isLoading },
    machine_tags: machineTags,
    machines,
    products,
    product_tags: productTags,
  };

  const periodChoices: Choice[] = PERIODS.map((id) => {
    const preset = presets.find((item) => item.key === id);
    const detail =
      preset?.date_from && preset.date_to
        ? `${formatPeriodDate(preset.date_from, 'span', language)} – ${formatPeriodDate(preset.date_to, 'span', language)}`
        : undefined;
    return { id, label: t(`reports.periods.${id}`), detail };
  });
  const groupByChoices = useChoices('groupBy', GROUP_BYS, (id) => t(`reports.groupBys.${id}`));
  const groupingChoices = useChoices('groupingPeriod', GROUPING_PERIODS, (id) => t(`reports.groupingPeriods.${id}`));
  const valueChoices = useChoices('value', VALUES, (id) => t(`reports.values.${id}`));

  const choosePeriod = (period: string) => {
    const next = PERIODS.find((id) => id === period);
    if (!next) return;
    if (next !== 'custom') return setFilters({ period: next });
    // A custom period starts from the dates of the preset it replaces.
    const current = presets.find((item) => item.key === filters.period);
    setFilters({ period: next, date_from: current?.date_from ?? '', date_to: current?.date_to ?? '' });
  };

  const dateField = (name: 'date_from' | 'date_to', label: string) => (
    <TextField
      type="date"
      fullWidth
      size="small"
      label={label}
      value={filters[name]}
      error={Boolean(problem)}
      onChange={(event) => setFilters({ [name]: event.target.value } as Partial<ReportFilters>)}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `report-${name}`, max: '9999-12-31' } }}
    />
  );

  const custom = filters.period === 'custom';
  return (
    <Card sx={{ p: 2.5 }} data-testid="report-filters" component="section" aria-label={t('reports.filters')}>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6, md: custom ? 4 : 3 }}>
          <ChoiceSelect label={t('reports.period')} value={filters.period} choices={periodChoices} onChange={choosePeriod} testId="report-period" />
        </Grid>
        {custom ? (
          <>
            <Grid size={{ xs: 6, sm: 3, md: 2 }}>{dateField('date_from', t('reports.dateFrom'))}</Grid>
            <Grid size={{ xs: 6, sm: 3, md: 2 }}>{dateField('date_to', t('reports.dateTo'))}</Grid>
          </>
        ) : null}
        <Grid size={{ xs: 12, sm: 4, md: custom ? 4 : 3 }}>
          <ChoiceSelect
            label={t('reports.groupBy')}
            value={filters.group_by}
            choices={groupByChoices}
            onChange={(id) => setFilters({ group_by: GROUP_BYS.find((known) => known === id) })}
            testId="report-group-by"
          />
        </Grid>
        <Grid size={{ xs: 6, sm: 4, md: custom ? 6 : 3 }}>
          <ChoiceSelect
            label={t('reports.groupingPeriod')}
            value={filters.grouping_period}
            choices={groupingChoices}
            onChange={(id) => setFilters({ grouping_period: GROUPING_PERIODS.find((known) => known === id) })}
            testId="report-grouping-period"
          />
        </Grid>
        <Grid size={{ xs: 6, sm: 4, md: custom ? 6 : 3 }}>
          <ChoiceSelect
            label={t('reports.value')}
            value={filters.value}
            choices={valueChoices}
            onChange={(id) => setFilters({ value: VALUES.find((known) => known === id) })}
            testId="report-value"
          />
        </Grid>
        {PICKERS.map(({ name, label }) => (
          <Grid key={name} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
            <MultiPicker
              label={t(label)}
              value={filters[name]}
              options={lists[name].data ?? []}
              loading={lists[name].isLoading}
              onChange={(ids) => setFilters({ [name]: ids } as Partial<ReportFilters>)}
              testId={`report-${name}`}
            />
          </Grid>
        ))}
        <Grid size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
          <Box sx={{ display: 'flex', alignItems: 'center', height: 1 }}>
            <Button color="inherit" startIcon={<RestartIcon />} disabled={!state.changed} onClick={state.reset} data-testid="report-reset">
              {t('reports.reset')}
            </Button>
          </Box>
        </Grid>
      </Grid>
    </Card>
  );
}
