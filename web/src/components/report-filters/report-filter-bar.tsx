// The filter bar of the report screens: period (with its own dates when custom), grouping, value
// and the fleet, product and employee pickers, each shown when the screen's controls name it
// (`useReportFilters(controls)`). Its state is the URL's query string.
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import Grid from '@mui/material/Grid';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import RestartIcon from '@mui/icons-material/RestartAlt';
import type { Option } from '../../api/types';
import type { I18nKey } from '../../locales/keys';
import { useClientOptions, useEmployeeOptions, useLocationOptions, useMachineOptions, useMachineTagOptions, useProductOptions, useProductTagOptions, useRegions } from '../../api/filter-options';
import { optionOf } from '../fields';
import { OptionChipsInput } from '../option-chips-input';
import { formatPeriodDate } from '../format';
import { usePeriodPresets, useReportChoices, type CHOICE_ENDPOINTS } from './report-filter-api';
import {
  GROUP_BYS,
  GROUPING_PERIODS,
  LIST_FILTERS,
  PERIODS,
  VALUES,
  type ListFilter,
  type ReportFilterState,
  type ReportFilters,
} from './report-filter-state';

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
  /** At most one id: a new choice replaces the one before. */
  single: boolean;
  onChange: (ids: string[]) => void;
  testId: string;
}

/** Any number of ids among id + name options (or one, when `single`); none means all. */
function MultiPicker({ label, value, options, loading, single, onChange, testId }: MultiPickerProps) {
  const { t } = useTranslation();
  const chosen = value.map((id) => optionOf(id, options));
  return (
    <OptionChipsInput
      compact
      options={options}
      value={chosen}
      loading={loading}
      closeOnSelect={single}
      onChange={(next) => onChange((single ? next.slice(-1) : next).map((option) => option.id))}
      noOptionsText={t('reports.noOptions')}
      label={label}
      placeholder={value.length === 0 ? t('reports.all') : undefined}
      helperText={single ? t('reports.oneAtATime') : undefined}
      testId={testId}
    />
  );
}

/** The choices of a fixed list, in the order the server gives (its ids we know), labelled in the UI language. */
function useChoices<T extends string>(kind: keyof typeof CHOICE_ENDPOINTS, known: readonly T[], shown: boolean, label: (id: T) => string): Choice[] {
  const served = useReportChoices(kind, shown).data;
  const ids = served?.length ? served.map((option) => option.id).filter((id): id is T => known.includes(id as T)) : [...known];
  return (ids.length ? ids : [...known]).map((id) => ({ id, label: label(id) }));
}

const PICKER_LABELS: Record<ListFilter, I18nKey> = {
  clients: 'reports.clients',
  locations: 'reports.locations',
  regions: 'reports.regions',
  machine_tags: 'reports.machineTags',
  machines: 'reports.machines',
  products: 'reports.products',
  product_tags: 'reports.productTags',
  employees: 'reports.employees',
};

const asOptions = (names: string[] | undefined): Option[] => (names ?? []).map((name) => ({ id: name, name }));

const CELL = { xs: 12, sm: 6, md: 4, lg: 3 } as const;
const DATE_CELL = { xs: 6, sm: 3, md: 2, lg: 1.5 } as const;

export interface ReportFilterBarProps {
  /** The screen's `useReportFilters(controls)`: which controls show, and their values. */
  state: ReportFilterState;
  /** Pickers that take one id at a time (an endpoint that filters by one machine or location). */
  single?: readonly ListFilter[];
}

/** The report filter bar; it stacks on narrow screens (one control a row on a phone, two on a tablet). */
export function ReportFilterBar({ state, single = [] }: ReportFilterBarProps) {
  const { t, i18n } = useTranslation();
  const { filters, setFilters, problem, controls } = state;
  const language = i18n.language;
  const shows = (control: (typeof controls)[number]) => controls.includes(control);

  const presets = usePeriodPresets().data ?? [];
  const clients = useClientOptions(shows('clients'));
  const locations = useLocationOptions(shows('locations'));
  const regions = useRegions(shows('regions'));
  const machineTags = useMachineTagOptions(shows('machine_tags'));
  const machines = useMachineOptions(shows('machines'));
  const products = useProductOptions(shows('products'));
  const productTags = useProductTagOptions(shows('product_tags'));
  const employees = useEmployeeOptions(shows('employees'));
  const lists: Record<ListFilter, { data?: Option[]; isLoading: boolean }> = {
    clients,
    locations,
    regions: { data: asOptions(regions.data), isLoading: regions.isLoading },
    machine_tags: machineTags,
    machines,
    products,
    product_tags: productTags,
    employees,
  };

  const periodChoices: Choice[] = PERIODS.map((id) => {
    const preset = presets.find((item) => item.key === id);
    const detail =
      preset?.date_from && preset.date_to
        ? `${formatPeriodDate(preset.date_from, 'span', language)} – ${formatPeriodDate(preset.date_to, 'span', language)}`
        : undefined;
    return { id, label: t(`reports.periods.${id}`), detail };
  });
  const groupByChoices = useChoices('groupBy', GROUP_BYS, shows('group_by'), (id) => t(`reports.groupBys.${id}`));
  const groupingChoices = useChoices('groupingPeriod', GROUPING_PERIODS, shows('grouping_period'), (id) => t(`reports.groupingPeriods.${id}`));
  const valueChoices = useChoices('value', VALUES, shows('value'), (id) => t(`reports.values.${id}`));

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

  const choices = [
    { name: 'group_by', label: t('reports.groupBy'), choices: groupByChoices, known: GROUP_BYS },
    { name: 'grouping_period', label: t('reports.groupingPeriod'), choices: groupingChoices, known: GROUPING_PERIODS },
    { name: 'value', label: t('reports.value'), choices: valueChoices, known: VALUES },
  ] as const;

  return (
    <Card sx={{ p: { xs: 2, md: 2.5 } }} data-testid="report-filters" component="section" aria-label={t('reports.filters')}>
      <Grid container spacing={2}>
        {shows('period') ? (
          <Grid size={CELL}>
            <ChoiceSelect label={t('reports.period')} value={filters.period} choices={periodChoices} onChange={choosePeriod} testId="report-period" />
          </Grid>
        ) : null}
        {shows('period') && filters.period === 'custom' ? (
          <>
            <Grid size={DATE_CELL}>{dateField('date_from', t('reports.dateFrom'))}</Grid>
            <Grid size={DATE_CELL}>{dateField('date_to', t('reports.dateTo'))}</Grid>
          </>
        ) : null}
        {choices.map(({ name, label, choices: list, known }) =>
          shows(name) ? (
            <Grid key={name} size={CELL}>
              <ChoiceSelect
                label={label}
                value={filters[name]}
                choices={list}
                onChange={(id) => setFilters({ [name]: (known as readonly string[]).find((item) => item === id) } as Partial<ReportFilters>)}
                testId={`report-${name.replace('_', '-')}`}
              />
            </Grid>
          ) : null,
        )}
        {LIST_FILTERS.filter(shows).map((name) => (
          <Grid key={name} size={CELL}>
            <MultiPicker
              label={t(PICKER_LABELS[name])}
              value={filters[name]}
              options={lists[name].data ?? []}
              loading={lists[name].isLoading}
              single={single.includes(name)}
              onChange={(ids) => setFilters({ [name]: ids } as Partial<ReportFilters>)}
              testId={`report-${name}`}
            />
          </Grid>
        ))}
        <Grid size={CELL}>
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
