import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { limitsOf } from '../../../api/limits';
import type { Mapping } from '../../../api/types';
import { SelectInput, SwitchInput, TextInput, useServerForm } from '../../../components/form';
import { FormDialog } from '../../../components/form/form-dialog';
import { text, texts } from '../../../components/form/rules';
import type { EditableDialogFrame } from '../../../components/reports/editable-table';
import { useSaveMapping } from '../api/settlements';
import { COLUMN_FIELDS, DECIMAL_SEPARATORS, emptyMappingValues, GENERIC_COLUMNS, toMappingBody, valuesFromMapping, type MappingValues } from '../settlements-logic';

const limits = limitsOf('MappingBody');

const schema = z.object({
  name: text(limits('name'), { required: true }),
  columns: z.object(texts(limitsOf('Columns'), COLUMN_FIELDS)),
  date_format: text(limits('date_format')),
  decimal_separator: z.enum(DECIMAL_SEPARATORS),
  amounts_in_minor: z.boolean(),
});

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;

/**
 * Creates or edits a processor's mapping: the file's column for each field and how it writes dates
 * and amounts. The table of mappings frames it (title, toasts, test ids).
 */
export function MappingDialog({ mapping, frame }: { mapping: Mapping | null; frame: EditableDialogFrame }) {
  const { t } = useTranslation();
  const save = useSaveMapping(mapping?.id ?? null);
  const form = useServerForm<MappingValues>({ schema, defaultValues: mapping ? valuesFromMapping(mapping) : emptyMappingValues(), versioned: Boolean(mapping) });
  const fillGeneric = () => {
    for (const field of COLUMN_FIELDS) form.setValue(`columns.${field}`, GENERIC_COLUMNS[field], { shouldDirty: true, shouldValidate: true });
    form.setValue('date_format', '%Y-%m-%d', { shouldDirty: true });
    form.setValue('decimal_separator', '.', { shouldDirty: true });
    form.setValue('amounts_in_minor', false, { shouldDirty: true });
  };

  return (
    <FormDialog
      {...frame}
      form={form}
      save={(values) => save.mutateAsync(toMappingBody(values, mapping?.version))}
      maxWidth="md"
    >
      <TextInput name="name" label={t('settlements.name')} required />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', justifyContent: 'space-between' }}>
        <Box sx={{ maxWidth: 560 }}>
          <Typography variant="subtitle2">{t('settlements.columns')}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('settlements.columnsHint')}
          </Typography>
        </Box>
        <Button variant="outlined" onClick={fillGeneric} title={t('settlements.genericHint')} data-testid="settlement-mapping-generic">
          {t('settlements.generic')}
        </Button>
      </Box>
      <Box sx={grid}>
        {COLUMN_FIELDS.map((field) => (
          <TextInput key={field} size="small" name={`columns.${field}`} label={t(`settlements.column.${field}`)} required={limitsOf('Columns')(field).required} />
        ))}
      </Box>
      <Box sx={grid}>
        <TextInput name="date_format" size="small" label={t('settlements.dateFormat')} helperText={t('settlements.dateFormatHint')} />
        <SelectInput name="decimal_separator" size="small" label={t('settlements.decimalSeparator')} testId="settlement-mapping-decimal">
          <MenuItem value=".">{t('settlements.decimalPoint')}</MenuItem>
          <MenuItem value=",">{t('settlements.decimalComma')}</MenuItem>
        </SelectInput>
      </Box>
      <SwitchInput name="amounts_in_minor" label={t('settlements.amountsInMinor')} />
    </FormDialog>
  );
}
