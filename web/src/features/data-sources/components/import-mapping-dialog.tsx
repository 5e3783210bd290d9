import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import type { HistoryMapping } from '../../../api/types';
import { SelectInput, TextInput, useServerForm } from '../../../components/form';
import { FormDialog } from '../../../components/form/form-dialog';
import type { EditableDialogFrame } from '../../../components/reports/editable-table';
import { useSaveHistoryMapping } from '../api/imports';
import { COLUMN_FIELDS, emptyMappingValues, mappingSchema, REQUIRED_COLUMNS, toMappingBody, valuesFromMapping, type ColumnField, type MappingValues } from '../import-logic';

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;

/** The fields with a word under them (what the column holds, or what it pairs with). */
const HINTED = ['machine', 'product', 'unit_price', 'quantity', 'transaction_id', 'status'] as const satisfies readonly ColumnField[];
const isHinted = (field: ColumnField): field is (typeof HINTED)[number] => (HINTED as readonly string[]).includes(field);

/** A part of the form: its title, what it is for, its fields. */
function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box component="legend" sx={{ p: 0, mb: 0.5 }}>
        <Typography variant="subtitle2" component="span">
          {title}
        </Typography>
      </Box>
      {hint ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: -1.5 }}>
          {hint}
        </Typography>
      ) : null}
      {children}
    </Box>
  );
}

/**
 * Creates or edits a saved mapping: its name, the file's column of each field, how dates, times,
 * amounts and payments are written, and which status values are not sales. The server's field
 * errors (`columns.product` …) show on their fields; a change is saved with the version read.
 * The table of mappings frames it (title, toasts, test ids).
 */
export function ImportMappingDialog({ mapping, frame }: { mapping: HistoryMapping | null; frame: EditableDialogFrame }) {
  const { t } = useTranslation();
  const save = useSaveHistoryMapping(mapping?.id ?? null);
  const form = useServerForm<MappingValues>({ schema: mappingSchema, defaultValues: mapping ? valuesFromMapping(mapping) : emptyMappingValues(), versioned: Boolean(mapping) });

  return (
    <FormDialog
      {...frame}
      form={form}
      save={(values) => save.mutateAsync(toMappingBody(values, mapping?.version, mapping?.columns))}
      maxWidth="md"
    >
      <TextInput name="name" label={t('dataSources.imports.mappingName')} required slotProps={{ htmlInput: { 'data-testid': 'history-mapping-name' } }} />
      <Section title={t('dataSources.imports.columns')} hint={t('dataSources.imports.columnsHint')}>
        <Box sx={grid}>
          {COLUMN_FIELDS.map((field) => (
            <TextInput
              key={field}
              size="small"
              name={`columns.${field}`}
              label={t(`dataSources.imports.column.${field}`)}
              required={REQUIRED_COLUMNS.includes(field)}
              helperText={isHinted(field) ? t(`dataSources.imports.columnHint.${field}`) : undefined}
              slotProps={{ htmlInput: { 'data-testid': `history-mapping-column-${field}`, spellCheck: false } }}
            />
          ))}
        </Box>
      </Section>
      <Section title={t('dataSources.imports.formats')}>
        <Box sx={grid}>
          <TextInput
            name="date_format"
            size="small"
            label={t('dataSources.imports.dateFormat')}
            helperText={t('dataSources.imports.dateFormatHint')}
            slotProps={{ htmlInput: { 'data-testid': 'history-mapping-date-format', spellCheck: false } }}
          />
          <TextInput
            name="time_format"
            size="small"
            label={t('dataSources.imports.timeFormat')}
            helperText={t('dataSources.imports.timeFormatHint')}
            slotProps={{ htmlInput: { 'data-testid': 'history-mapping-time-format', spellCheck: false } }}
          />
          <TextInput
            name="zone"
            size="small"
            label={t('dataSources.imports.zone')}
            helperText={t('dataSources.imports.zoneHint')}
            slotProps={{ htmlInput: { 'data-testid': 'history-mapping-zone', spellCheck: false } }}
          />
          <SelectInput name="decimal_separator" size="small" label={t('dataSources.imports.decimalSeparator')} testId="history-mapping-decimal">
            <MenuItem value=".">{t('dataSources.imports.decimalPoint')}</MenuItem>
            <MenuItem value=",">{t('dataSources.imports.decimalComma')}</MenuItem>
          </SelectInput>
          <TextInput
            name="cash_values"
            size="small"
            label={t('dataSources.imports.cashValues')}
            helperText={t('dataSources.imports.cashValuesHint')}
            slotProps={{ htmlInput: { 'data-testid': 'history-mapping-cash-values', spellCheck: false } }}
          />
          <TextInput
            name="skip_values"
            size="small"
            label={t('dataSources.imports.skipValues')}
            helperText={t('dataSources.imports.skipValuesHint')}
            slotProps={{ htmlInput: { 'data-testid': 'history-mapping-skip-values', spellCheck: false } }}
          />
        </Box>
      </Section>
    </FormDialog>
  );
}
