import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Machine, Option } from '../../../api/types';
import { FreeSoloField, OptionPicker } from '../../../components/fields';
import { fieldMessages, isStaleVersion } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import type { FieldErrors } from '../../../components/validation';
import { paths } from '../../../routes/paths';
import { useLocationOptions, useMachineTagOptions, useModelOptions } from '../api/filters';
import { useCreateMachine, useUpdateMachine } from '../api/machines';
import {
  CONNECTION_METHODS,
  CURRENCIES,
  DEVICES,
  PROTOCOLS,
  toMachineForm,
  validateMachine,
  type DeviceKind,
  type DeviceValues,
  type MachineField,
  type MachineFormValues,
  type MachineTextField,
} from './machine-form-values';
import { SecretDialog } from './secret-dialog';

interface Props {
  initial: MachineFormValues;
  machine?: Machine;
}

const grid = { display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } } as const;

const DEVICE_LABEL = {
  coin_changer: 'machines.coinChanger',
  bill_validator: 'machines.billValidator',
  cashless: 'machines.cashless',
} as const;

/** The machine form: creating (then the secret dialog, then the machine) or its settings tab. */
export function MachineForm({ initial, machine }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !machine;
  const [values, setValues] = useState<MachineFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors<MachineField>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const [created, setCreated] = useState<Machine | null>(null);
  const models = useModelOptions();
  const locations = useLocationOptions();
  const tags = useMachineTagOptions();
  const create = useCreateMachine();
  const update = useUpdateMachine(machine?.id ?? '');
  const saving = create.isPending || update.isPending;

  const clear = (field: string) => {
    setErrors((previous) => ({ ...previous, [field]: undefined }));
    setServerErrors((previous) => ({ ...previous, [field]: '' }));
  };

  const set = <F extends keyof MachineFormValues>(field: F, value: MachineFormValues[F]) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    clear(field);
  };

  const setDevice = (kind: DeviceKind, patch: Partial<DeviceValues>) => {
    setValues((previous) => ({
      ...previous,
      peripherals: { ...previous.peripherals, [kind]: { ...previous.peripherals[kind], ...patch } },
    }));
    clear(`peripherals.${kind}`);
  };

  const message = (field: MachineField): string | undefined => {
    const problem = errors[field];
    if (problem) return t(problem.key, problem.values);
    return serverErrors[field] || undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateMachine(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setStale(false);
    try {
      if (creating) {
        const saved = await create.mutateAsync(toMachineForm(values));
        toast.success(t('success.machineCreated'));
        if (saved.webhook_secret) setCreated(saved);
        else navigate(paths.settings.machine(saved.id, 'overview'));
      } else {
        await update.mutateAsync(toMachineForm(values, machine.version));
        toast.success(t('success.machineUpdated'));
      }
    } catch (error) {
      setServerErrors(fieldMessages(error));
      setStale(!creating && isStaleVersion(error));
      toast.error(creating ? t('errors.machineCreate') : t('errors.machineUpdate'));
    }
  };

  const text = (field: MachineTextField, label: string, required = false) => (
    <TextField
      name={field}
      label={label}
      value={values[field]}
      onChange={(event) => set(field, event.target.value)}
      error={Boolean(message(field))}
      helperText={message(field)}
      required={required}
      autoComplete="off"
      fullWidth
    />
  );

  const tagOptions = tags.data ?? [];
  const chosenTags: Option[] = values.tag_ids.map(
    (id) => tagOptions.find((tag) => tag.id === id) ?? machine?.tags.find((tag) => tag.id === id) ?? { id, name: id },
  );

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {stale ? <Alert severity="warning">{t('errors.staleVersion')}</Alert> : null}
      <Card>
        <CardHeader title={t('machines.sectionDetails')} />
        <CardContent sx={grid}>
          {text('name', t('machines.name'), true)}
          <OptionPicker
            name="location_id"
            label={t('machines.location')}
            value={values.location_id}
            options={locations.data ?? []}
            currentName={machine?.location_name}
            loading={locations.isLoading}
            noneLabel={t('machines.noLocation')}
            onChange={(id) => set('location_id', id)}
            error={message('location_id')}
            testId="machine-location"
          />
          {text('serial', t('machines.serial'))}
          {text('mcu_serial', t('machines.mcuSerial'))}
          <OptionPicker
            name="model_id"
            label={t('machines.model')}
            value={values.model_id}
            options={models.data ?? []}
            currentName={machine?.model_name}
            loading={models.isLoading}
            noneLabel={t('machines.noModel')}
            onChange={(id) => set('model_id', id)}
            error={message('model_id')}
            testId="machine-model"
          />
          <Autocomplete
            multiple
            options={tagOptions}
            value={chosenTags}
            loading={tags.isLoading}
            noOptionsText={t('users.noOptions')}
            getOptionLabel={(option) => option.name}
            isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
            onChange={(_event, next) => set('tag_ids', next.map((option) => option.id))}
            renderInput={(params) => (
              <TextField
                {...params}
                name="tag_ids"
                label={t('machines.tags')}
                error={Boolean(message('tag_ids'))}
                helperText={message('tag_ids')}
                slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'machine-tags' } }}
              />
            )}
          />
          <FormControlLabel
            control={<Switch checked={values.inactive} onChange={(event) => set('inactive', event.target.checked)} name="inactive" />}
            label={
              <Box>
                <Typography variant="body2">{t('machines.inactive')}</Typography>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {t('machines.inactiveHint')}
                </Typography>
              </Box>
            }
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('machines.sectionConnection')} />
        <CardContent sx={grid}>
          {text('firmware', t('machines.firmware'))}
          <FreeSoloField
            name="connection_method"
            label={t('machines.connectionMethod')}
            value={values.connection_method}
            options={CONNECTION_METHODS}
            onChange={(value) => set('connection_method', value)}
            error={message('connection_method')}
          />
          <FreeSoloField
            name="protocol"
            label={t('machines.protocol')}
            value={values.protocol}
            options={PROTOCOLS}
            onChange={(value) => set('protocol', value)}
            error={message('protocol')}
          />
          <FreeSoloField
            name="currency"
            label={t('machines.currency')}
            value={values.currency}
            options={CURRENCIES}
            onChange={(value) => set('currency', value.toUpperCase())}
            error={message('currency')}
            helperText={t('machines.currencyHint')}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('machines.sectionPeripherals')} />
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
          {DEVICES.map((kind) => {
            const device = values.peripherals[kind];
            const problem = message(`peripherals.${kind}`);
            return (
              <Box key={kind} data-testid={`peripheral-${kind}`}>
                <Box sx={{ display: 'grid', gap: 2, alignItems: 'center', gridTemplateColumns: { xs: '1fr', md: '220px 1fr 1fr' } }}>
                  <FormControlLabel
                    control={
                      <Switch
                        name={`peripherals.${kind}.fitted`}
                        checked={device.fitted}
                        onChange={(event) => setDevice(kind, { fitted: event.target.checked })}
                      />
                    }
                    label={t(DEVICE_LABEL[kind])}
                  />
                  <TextField
                    size="small"
                    name={`peripherals.${kind}.serial`}
                    label={t('machines.deviceSerial')}
                    value={device.serial}
                    disabled={!device.fitted}
                    error={Boolean(problem)}
                    onChange={(event) => setDevice(kind, { serial: event.target.value })}
                    autoComplete="off"
                  />
                  <TextField
                    size="small"
                    name={`peripherals.${kind}.model`}
                    label={t('machines.deviceModel')}
                    value={device.model}
                    disabled={!device.fitted}
                    error={Boolean(problem)}
                    onChange={(event) => setDevice(kind, { model: event.target.value })}
                    autoComplete="off"
                  />
                </Box>
                {problem ? <FormHelperText error>{problem}</FormHelperText> : null}
              </Box>
            );
          })}
        </CardContent>
      </Card>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        {creating ? (
          <Button variant="outlined" color="inherit" onClick={() => navigate(paths.settings.machineManagement)}>
            {t('common.cancel')}
          </Button>
        ) : null}
        <Button type="submit" variant="contained" loading={saving} data-testid="machine-submit">
          {creating ? t('machines.newMachine') : t('common.saveChanges')}
        </Button>
      </Box>
      {created?.webhook_secret ? (
        <SecretDialog
          secret={created.webhook_secret}
          machineName={created.name}
          onClose={() => navigate(paths.settings.machine(created.id, 'overview'))}
        />
      ) : null}
    </Box>
  );
}
