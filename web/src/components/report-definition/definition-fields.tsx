// A report's definition in a form (the generator's and the query scheduler's): its module, the
// module's filters (the report screens' filter bar, on the form's `params` instead of the URL),
// and the file's format, chart and columns.
import { useMemo } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { ChoiceField } from '../fields';
import type { ReportModule, ReportParams } from '../../api/types';
import { SelectInput, useFieldMessage } from '../form';
import { ReportFilterBar } from '../report-filters/report-filter-bar';
import { DEFAULT_REPORT_FILTERS, INVENTORY_TABS, reportQuery, type ReportFilterState, type ReportFilters } from '../report-filters/report-filter-state';
import { useModuleColumns } from './definition-api';
import {
  defaultParams,
  filtersOf,
  FORMATS,
  GRAPHS,
  hasPeriod,
  inServerOrder,
  MODULE_CONTROLS,
  MODULE_SINGLE,
  paramsOf,
  paramsProblem,
  takesGraph,
  type DefinitionValues,
  type KeyLabel,
} from './definition-logic';
import { useGroupMessage } from './form-messages';

/** A relative period of a schedule (`yesterday`, `previous_week`, …) with its label. */
export interface PeriodChoice {
  key: string;
  label: string;
}

interface ModuleSelectProps {
  /** The server's modules (the generator's or the scheduler's), labelled. */
  modules: { key: string; label: string }[];
  loading?: boolean;
  /** The module is given (a schedule's address names it). */
  locked?: boolean;
  /** A schedule: a new module's period is a relative one. */
  schedule?: boolean;
}

/** The module: choosing another starts its filters, columns and chart over. */
export function ModuleSelect({ modules, loading, locked, schedule = false }: ModuleSelectProps) {
  const { t } = useTranslation();
  const { setValue, clearErrors } = useFormContext<DefinitionValues>();
  const { field } = useController<DefinitionValues, 'module'>({ name: 'module' });
  const message = useFieldMessage('module');
  const choose = (next: ReportModule) => {
    field.onChange(next);
    setValue('params', defaultParams(next, schedule), { shouldDirty: true });
    setValue('columns', [], { shouldDirty: true });
    if (!takesGraph(next)) setValue('graph', 'none', { shouldDirty: true });
    clearErrors(['params', 'columns', 'graph']);
  };
  const known = modules.some((option) => option.key === field.value);
  return (
    <TextField
      select
      fullWidth
      required
      name="module"
      label={t('reportGenerator.module')}
      value={field.value}
      disabled={locked}
      onChange={(event) => choose(event.target.value as ReportModule)}
      onBlur={field.onBlur}
      inputRef={field.ref}
      error={Boolean(message)}
      helperText={message ?? (loading ? t('app.loading') : undefined)}
      slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'report-module' } as object } }}
    >
      {modules.map((option) => (
        <MenuItem key={option.key} value={option.key} data-testid={`report-module-${option.key}`}>
          {option.label}
        </MenuItem>
      ))}
      {field.value && !known ? <MenuItem value={field.value}>{t(`reportGenerator.modules.${field.value}`)}</MenuItem> : null}
    </TextField>
  );
}

/** The filter bar's state over the form's `params` (instead of the URL of a report screen). */
function useParamsFilterState(module: ReportModule, params: ReportParams, setParams: (params: ReportParams) => void, schedule: boolean): ReportFilterState {
  const controls = useMemo(() => (schedule ? MODULE_CONTROLS[module].filter((control) => control !== 'period') : MODULE_CONTROLS[module]), [module, schedule]);
  const filters = useMemo(() => filtersOf(params), [params]);
  const options = { tab: params.tab, period: schedule ? params.period : undefined };
  const setFilters = (change: Partial<ReportFilters>) => setParams(paramsOf(module, { ...filters, ...change }, options));
  const defaults = paramsOf(module, DEFAULT_REPORT_FILTERS, options);
  return {
    filters,
    query: reportQuery(filters, controls),
    problem: paramsProblem(module, params),
    controls,
    changed: JSON.stringify(defaults) !== JSON.stringify(params),
    setFilters,
    reset: () => setParams(defaults),
  };
}

interface FiltersProps {
  /** A schedule: its period is one of these relative ones rather than the filter bar's. */
  periods?: PeriodChoice[];
}

/** The chosen module's filters: the report screen's filter bar, the inventory's tab, a schedule's period. */
export function DefinitionFilters({ periods }: FiltersProps) {
  const { t } = useTranslation();
  const { setValue, clearErrors } = useFormContext<DefinitionValues>();
  const module = useWatch<DefinitionValues, 'module'>({ name: 'module' });
  const params = useWatch<DefinitionValues, 'params'>({ name: 'params' });
  const message = useGroupMessage('params');
  if (!module) {
    return (
      <Alert severity="info" data-testid="report-choose-module">
        {t('reportGenerator.chooseModule')}
      </Alert>
    );
  }
  return (
    <DefinitionFilterBar
      module={module}
      params={params ?? {}}
      periods={periods}
      message={message}
      setParams={(next) => {
        setValue('params', next, { shouldDirty: true });
        clearErrors('params');
      }}
    />
  );
}

interface FilterBarProps {
  module: ReportModule;
  params: ReportParams;
  periods?: PeriodChoice[];
  message?: string;
  setParams: (params: ReportParams) => void;
}

function DefinitionFilterBar({ module, params, periods, message, setParams }: FilterBarProps) {
  const { t } = useTranslation();
  const schedule = periods !== undefined;
  const state = useParamsFilterState(module, params, setParams, schedule);
  const problem = state.problem;
  const extra = module === 'inventory' || (schedule && hasPeriod(module));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="report-definition-filters">
      {extra ? (
        <Card sx={{ p: { xs: 2, md: 2.5 }, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr 1fr' } }}>
          {schedule && hasPeriod(module) ? (
            <TextField
              select
              size="small"
              label={t('reportGenerator.period')}
              value={params.period ?? ''}
              onChange={(event) => setParams({ ...params, period: event.target.value })}
              helperText={t('reportGenerator.periodHint')}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'schedule-period' } as object } }}
            >
              {periods.map((period) => (
                <MenuItem key={period.key} value={period.key} data-testid={`schedule-period-${period.key}`}>
                  {period.label}
                </MenuItem>
              ))}
              {params.period && !periods.some((period) => period.key === params.period) ? <MenuItem value={params.period}>{params.period}</MenuItem> : null}
            </TextField>
          ) : null}
          {module === 'inventory' ? (
            <ChoiceField
              label={t('reportGenerator.inventoryTab')}
              value={params.tab ?? 'products'}
              choices={INVENTORY_TABS}
              labelOf={(tab) => t(`reportGenerator.inventoryTabs.${tab}`)}
              onChange={(tab) => setParams({ ...params, tab })}
              testId="report-inventory-tab"
            />
          ) : null}
        </Card>
      ) : null}
      <ReportFilterBar state={state} single={MODULE_SINGLE[module] ?? []} />
      {problem ? <Alert severity="warning">{t(`reports.${problem}`)}</Alert> : null}
      {message ? (
        <Alert severity="error" data-testid="report-params-error">
          {message}
        </Alert>
      ) : null}
    </Box>
  );
}

/** The columns to keep (none chosen: all), in the server's order; fixed for the sales overview. */
function ColumnsInput({ module }: { module: ReportModule }) {
  const { t } = useTranslation();
  const columns = useModuleColumns(module);
  const { field } = useController<DefinitionValues, 'columns'>({ name: 'columns' });
  const message = useGroupMessage('columns');
  const offered = columns.data ?? [];
  if (columns.isSuccess && offered.length === 0) {
    return (
      <Box>
        <TextField fullWidth disabled label={t('reportGenerator.columns')} value={t('reportGenerator.allColumns')} />
        <FormHelperText>{t('reportGenerator.fixedColumns')}</FormHelperText>
      </Box>
    );
  }
  const chosen: KeyLabel[] = (field.value ?? []).map((key) => offered.find((column) => column.key === key) ?? { key, label: key });
  return (
    <Autocomplete
      multiple
      disableCloseOnSelect
      options={offered}
      value={chosen}
      loading={columns.isLoading}
      noOptionsText={t('reports.noOptions')}
      getOptionLabel={(option) => option.label}
      isOptionEqualToValue={(option, value) => option.key === value.key}
      onChange={(_event, next) => field.onChange(inServerOrder(next.map((option) => option.key), offered))}
      renderValue={(selected, getItemProps) =>
        selected.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option.label} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          name="columns"
          label={t('reportGenerator.columns')}
          placeholder={chosen.length === 0 ? t('reportGenerator.allColumns') : undefined}
          error={Boolean(message) || columns.isError}
          helperText={message ?? (columns.isError ? t('reportGenerator.columnsFailed') : t('reportGenerator.columnsHint'))}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'report-columns' } }}
        />
      )}
    />
  );
}

/** The file: its format, a chart (the sales overview only) and its columns. */
export function FileOptions({ testId = 'report-file' }: { testId?: string }) {
  const { t } = useTranslation();
  const module = useWatch<DefinitionValues, 'module'>({ name: 'module' });
  return (
    <Card data-testid={testId}>
      <CardHeader title={t('reportGenerator.file')} />
      <CardContent sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: takesGraph(module) ? '1fr 1fr' : '1fr 2fr' } }}>
        <SelectInput name="format" label={t('reportGenerator.format')} testId="report-format">
          {FORMATS.map((format) => (
            <MenuItem key={format} value={format} data-testid={`report-format-${format}`}>
              {t(`reportGenerator.formats.${format}`)}
            </MenuItem>
          ))}
        </SelectInput>
        {takesGraph(module) ? (
          <SelectInput name="graph" label={t('reportGenerator.graph')} testId="report-graph" helperText={t('reportGenerator.graphHint')}>
            {GRAPHS.map((graph) => (
              <MenuItem key={graph} value={graph} data-testid={`report-graph-${graph}`}>
                {t(`reportGenerator.graphs.${graph}`)}
              </MenuItem>
            ))}
          </SelectInput>
        ) : null}
        {module ? (
          <Box sx={{ gridColumn: takesGraph(module) ? { md: '1 / -1' } : undefined }}>
            <ColumnsInput key={module} module={module} />
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}
