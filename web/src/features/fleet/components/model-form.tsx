import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import type { MachineModel } from '../../../api/types';
import { Form, FormAlerts, FormFooter, FreeSoloInput, TextInput, useServerForm } from '../../../components/form';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import { useManufacturers, useModelTypes } from '../api/filters';
import { useCreateModel, useUpdateModel } from '../api/models';
import { MODEL_ERROR_ALIASES, modelSchema, toModelForm, type ModelFormValues } from './model-form-values';

interface Props {
  initial: ModelFormValues;
  model?: MachineModel;
}

export function ModelForm({ initial, model }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !model;
  const form = useServerForm({ schema: modelSchema, defaultValues: initial, aliases: MODEL_ERROR_ALIASES, versioned: !creating });
  const types = useModelTypes();
  const manufacturers = useManufacturers();
  const create = useCreateModel();
  const update = useUpdateModel(model?.id ?? '');

  const submit = form.submitWith(
    async (values) => {
      if (creating) {
        await create.mutateAsync(toModelForm(values));
        toast.success(t('success.modelCreated'));
      } else {
        await update.mutateAsync(toModelForm(values, model.version));
        toast.success(t('success.modelUpdated'));
      }
      navigate(paths.settings.modelManagement);
    },
    { onError: () => toast.error(creating ? t('errors.modelCreate') : t('errors.modelUpdate')) },
  );

  return (
    <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <FormAlerts stale={form.stale} />
      <Card>
        <CardContent sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1fr' } }}>
          <TextInput name="name" label={t('models.name')} required />
          <FreeSoloInput name="type" label={t('models.type')} options={types.data ?? []} loading={types.isLoading} required />
          <FreeSoloInput
            name="manufacturer"
            label={t('models.manufacturer')}
            options={manufacturers.data ?? []}
            loading={manufacturers.isLoading}
            required
          />
        </CardContent>
      </Card>
      <FormFooter cancelTo={paths.settings.modelManagement} submitLabel={creating ? t('models.newModel') : t('common.saveChanges')} testId="model-submit" />
    </Form>
  );
}
