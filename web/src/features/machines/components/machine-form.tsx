import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import type { Machine } from '../../../api/types';
import {
  Form,
  FormAlerts,
  FormFooter,
  FreeSoloInput,
  MultiOptionInput,
  OptionInput,
  SelectInput,
  SwitchInput,
  TextInput,
  useFieldMessage,
  useServerForm,
} from '../../../components/form';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import { useLocationOptions, useMachineTagOptions } from '../../../api/filter-options';
import { useModelOptions } from '../api/filters';
import { useCreateMachine, useUpdateMachine } from '../api/machines';
import {
  CONNECTION_METHODS,
  CURRENCIES,
  DEVICES,
  PROTOCOLS,
  SALES_SOURCES,
  machineSchema,
  toMachineForm,
  type DeviceKind,
  type MachineFormValues,
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

const upper = (value: string) => value.toUpperCase();

const SALES_SOURCE_LABEL = {
  events: 'machines.salesSourceEvents',
  audit: 'machines.salesSourceAudit',
} as const;

/** One peripheral: fitted or not, and then its serial and model. */
function DeviceRow({ kind }: { kind: DeviceKind }) {
  const { t } = useTranslation();
  const fitted = useWatch<MachineFormValues, `peripherals.${DeviceKind}.fitted`>({ name: `peripherals.${kind}.fitted` });
  // The server names the device when it refuses it.
  const problem = useFieldMessage(`peripherals.${kind}`);
  return (
    <Box data-testid={`peripheral-${kind}`}>
      <Box sx={{ display: 'grid', gap: 2, alignItems: 'flex-start', gridTemplateColumns: { xs: '1fr', md: '220px 1fr 1fr' } }}>
        <SwitchInput name={`peripherals.${kind}.fitted`} label={t(DEVICE_LABEL[kind])} />
        <TextInput size="small" name={`peripherals.${kind}.serial`} label={t('machines.deviceSerial')} disabled={!fitted} />
        <TextInput size="small" name={`peripherals.${kind}.model`} label={t('machines.deviceModel')} disabled={!fitted} />
      </Box>
      {problem ? <FormHelperText error>{problem}</FormHelperText> : null}
    </Box>
  );
}

/** The machine form: creating (then the secret dialog, then the machine) or its settings tab. */
export function MachineForm({ initial, machine }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !machine;
  const form = useServerForm({ schema: machineSchema, defaultValues: initial, versioned: !creating });
  const [created, setCreated] = useState<Machine | null>(null);
  const models = useModelOptions();
  const locations = useLocationOptions();
  const tags = useMachineTagOptions();
  const create = useCreateMachine();
  const update = useUpdateMachine(machine?.id ?? '');

  const submit = form.submitWith(
    async (values) => {
      if (creating) {
        const saved = await create.mutateAsync(toMachineForm(values));
        toast.success(t('success.machineCreated'));
        if (saved.webhook_secret) setCreated(saved);
        else navigate(paths.settings.machine(saved.id, 'overview'));
      } else {
        await update.mutateAsync(toMachineForm(values, machine.version));
        toast.success(t('success.machineUpdated'));
      }
    },
    { onError: () => toast.error(creating ? t('errors.machineCreate') : t('errors.machineUpdate')) },
  );

  return (
    <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <FormAlerts stale={form.stale} />
      <Card>
        <CardHeader title={t('machines.sectionDetails')} />
        <CardContent sx={grid}>
          <TextInput name="name" label={t('machines.name')} required />
          <OptionInput
            name="location_id"
            label={t('machines.location')}
            options={locations.data ?? []}
            currentName={machine?.location_name}
            loading={locations.isLoading}
            noneLabel={t('machines.noLocation')}
            testId="machine-location"
          />
          <TextInput name="serial" label={t('machines.serial')} />
          <TextInput name="mcu_serial" label={t('machines.mcuSerial')} />
          <TextInput name="terminal_id" label={t('machines.terminalId')} helperText={t('machines.terminalIdHint')} />
          <TextInput
            name="nayax_machine_id"
            label={t('machines.nayaxMachineId')}
            helperText={t('machines.nayaxMachineIdHint')}
          />
          <OptionInput
            name="model_id"
            label={t('machines.model')}
            options={models.data ?? []}
            currentName={machine?.model_name}
            loading={models.isLoading}
            noneLabel={t('machines.noModel')}
            testId="machine-model"
          />
          <MultiOptionInput
            name="tag_ids"
            label={t('machines.tags')}
            options={tags.data ?? []}
            known={machine?.tags}
            loading={tags.isLoading}
            testId="machine-tags"
          />
          <SwitchInput
            name="inactive"
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
          <TextInput name="firmware" label={t('machines.firmware')} />
          <FreeSoloInput name="connection_method" label={t('machines.connectionMethod')} options={CONNECTION_METHODS} />
          <FreeSoloInput name="protocol" label={t('machines.protocol')} options={PROTOCOLS} />
          <FreeSoloInput
            name="currency"
            label={t('machines.currency')}
            options={CURRENCIES}
            normalize={upper}
            helperText={t('machines.currencyHint')}
          />
          <SelectInput name="sales_source" label={t('machines.salesSource')} helperText={t('machines.salesSourceHint')} testId="machine-sales-source">
            {SALES_SOURCES.map((source) => (
              <MenuItem key={source} value={source} data-testid={`sales-source-${source}`}>
                {t(SALES_SOURCE_LABEL[source])}
              </MenuItem>
            ))}
          </SelectInput>
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('machines.sectionPeripherals')} />
        <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
          {DEVICES.map((kind) => (
            <DeviceRow key={kind} kind={kind} />
          ))}
        </CardContent>
      </Card>
      <FormFooter cancelTo={creating ? paths.settings.machineManagement : undefined} submitLabel={creating ? t('machines.newMachine') : t('common.saveChanges')} testId="machine-submit" />
      {created?.webhook_secret ? (
        <SecretDialog
          secret={created.webhook_secret}
          machineName={created.name}
          onClose={() => navigate(paths.settings.machine(created.id, 'overview'))}
        />
      ) : null}
    </Form>
  );
}
