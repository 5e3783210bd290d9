import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { fieldMessages, isStaleVersion } from '../../../components/server-errors';
import { rules } from '../../../components/validation';

export interface SimpleValues {
  name: string;
  unit: string;
  inactive: boolean;
}

interface Props {
  title: string;
  submitLabel: string;
  initial: SimpleValues;
  /** Components have a unit and an inactive flag; tags only a name. */
  withUnit: boolean;
  testId: string;
  onSave: (values: SimpleValues) => Promise<void>;
  onClose: () => void;
}

/** A small create/edit dialog: a name, and for components a unit and the inactive switch. */
export function SimpleDialog({ title, submitLabel, initial, withUnit, testId, onSave, onClose }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState<SimpleValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const name = rules.required(values.name) ?? rules.maxLength(values.name, withUnit ? 150 : 60);
    const unit = withUnit ? (rules.required(values.unit) ?? rules.maxLength(values.unit, 20)) : undefined;
    const found: Record<string, string> = {};
    if (name) found.name = t(name.key, name.values);
    if (unit) found.unit = t(unit.key, unit.values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    setStale(false);
    try {
      await onSave({ ...values, name: values.name.trim(), unit: values.unit.trim() });
      onClose();
    } catch (error) {
      setErrors(fieldMessages(error));
      setStale(isStaleVersion(error));
    } finally {
      setSaving(false);
    }
  };

  const field = (name: 'name' | 'unit', label: string) => (
    <TextField
      name={name}
      label={label}
      value={values[name]}
      onChange={(event) => {
        setValues((previous) => ({ ...previous, [name]: event.target.value }));
        setErrors((previous) => ({ ...previous, [name]: '' }));
      }}
      error={Boolean(errors[name])}
      helperText={errors[name] || undefined}
      required
      autoComplete="off"
      fullWidth
    />
  );

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="xs">
      <Box component="form" noValidate onSubmit={(event) => void submit(event)} data-testid={testId}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, pt: '8px !important' }}>
          {stale ? <Alert severity="warning">{t('errors.staleVersion')}</Alert> : null}
          {field('name', withUnit ? t('products.name') : t('products.tagName'))}
          {withUnit ? field('unit', t('products.unit')) : null}
          {withUnit ? (
            <FormControlLabel
              control={<Switch name="inactive" checked={values.inactive} onChange={(event) => setValues((previous) => ({ ...previous, inactive: event.target.checked }))} />}
              label={t('products.inactive')}
            />
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button variant="outlined" color="inherit" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" loading={saving} data-testid={`${testId}-submit`}>
            {submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
