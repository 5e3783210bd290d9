import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import TextField from '@mui/material/TextField';
import type { MachineModel } from '../../../api/types';
import { fieldMessages, isStaleVersion } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import type { FieldErrors } from '../../../components/validation';
import { paths } from '../../../routes/paths';
import { useManufacturers, useModelTypes } from '../api/filters';
import { useCreateModel, useUpdateModel } from '../api/models';
import { FreeSoloField } from '../../../components/fields';
import {
  MODEL_ERROR_ALIASES,
  toModelForm,
  validateModel,
  type ModelField,
  type ModelFormValues,
} from './model-form-values';

interface Props {
  initial: ModelFormValues;
  model?: MachineModel;
}

export function ModelForm({ initial, model }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !model;
  const [values, setValues] = useState<ModelFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors<ModelField>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const types = useModelTypes();
  const manufacturers = useManufacturers();
  const create = useCreateModel();
  const update = useUpdateModel(model?.id ?? '');
  const saving = create.isPending || update.isPending;

  const set = (field: ModelField, value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
    setServerErrors((previous) => ({ ...previous, [field]: '' }));
  };

  const message = (field: ModelField): string | undefined => {
    const problem = errors[field];
    if (problem) return t(problem.key, problem.values);
    return serverErrors[field] || undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateModel(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setStale(false);
    try {
      if (creating) {
        await create.mutateAsync(toModelForm(values));
        toast.success(t('success.modelCreated'));
      } else {
        await update.mutateAsync(toModelForm(values, model.version));
        toast.success(t('success.modelUpdated'));
      }
      navigate(paths.settings.modelManagement);
    } catch (error) {
      setServerErrors(fieldMessages(error, MODEL_ERROR_ALIASES));
      setStale(!creating && isStaleVersion(error));
      toast.error(creating ? t('errors.modelCreate') : t('errors.modelUpdate'));
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {stale ? <Alert severity="warning">{t('errors.staleVersion')}</Alert> : null}
      <Card>
        <CardContent sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1fr' } }}>
          <TextField
            name="name"
            label={t('models.name')}
            value={values.name}
            onChange={(event) => set('name', event.target.value)}
            error={Boolean(message('name'))}
            helperText={message('name')}
            required
            autoComplete="off"
            fullWidth
          />
          <FreeSoloField
            name="type"
            label={t('models.type')}
            value={values.type}
            options={types.data ?? []}
            loading={types.isLoading}
            onChange={(value) => set('type', value)}
            error={message('type')}
            required
          />
          <FreeSoloField
            name="manufacturer"
            label={t('models.manufacturer')}
            value={values.manufacturer}
            options={manufacturers.data ?? []}
            loading={manufacturers.isLoading}
            onChange={(value) => set('manufacturer', value)}
            error={message('manufacturer')}
            required
          />
        </CardContent>
      </Card>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        <Button variant="outlined" color="inherit" onClick={() => navigate(paths.settings.modelManagement)}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={saving} data-testid="model-submit">
          {creating ? t('models.newModel') : t('common.saveChanges')}
        </Button>
      </Box>
    </Box>
  );
}
