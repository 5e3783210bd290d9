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
import TextField from '@mui/material/TextField';
import type { Location } from '../../../api/types';
import { fieldMessages, isStaleVersion } from '../../../components/server-errors';
import { toast } from '../../../components/snackbar';
import type { FieldErrors } from '../../../components/validation';
import { paths } from '../../../routes/paths';
import { useClientOptions, useEmployeeOptions, useLocationTypes, useRegions, useTimeZones } from '../api/filters';
import { useCreateLocation, useUpdateLocation } from '../api/locations';
import { FreeSoloField, OptionPicker } from '../../../components/fields';
import {
  LOCATION_ERROR_ALIASES,
  toLocationForm,
  validateLocation,
  type LocationField,
  type LocationFormValues,
} from './location-form-values';

interface Props {
  initial: LocationFormValues;
  location?: Location;
}

const grid = { display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } } as const;

export function LocationForm({ initial, location }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !location;
  const [values, setValues] = useState<LocationFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors<LocationField>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const clients = useClientOptions();
  const employees = useEmployeeOptions();
  const types = useLocationTypes();
  const regions = useRegions();
  const zones = useTimeZones();
  const create = useCreateLocation();
  const update = useUpdateLocation(location?.id ?? '');
  const saving = create.isPending || update.isPending;

  const set = (field: LocationField, value: string) => {
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
    setServerErrors((previous) => ({ ...previous, [field]: '' }));
  };

  const message = (field: LocationField): string | undefined => {
    const problem = errors[field];
    if (problem) return t(problem.key, problem.values);
    return serverErrors[field] || undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateLocation(values, zones.data);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setStale(false);
    try {
      if (creating) {
        await create.mutateAsync(toLocationForm(values));
        toast.success(t('success.locationCreated'));
      } else {
        await update.mutateAsync(toLocationForm(values, location.version));
        toast.success(t('success.locationUpdated'));
      }
      navigate(paths.settings.locationManagement);
    } catch (error) {
      setServerErrors(fieldMessages(error, LOCATION_ERROR_ALIASES));
      setStale(!creating && isStaleVersion(error));
      toast.error(creating ? t('errors.locationCreate') : t('errors.locationUpdate'));
    }
  };

  const text = (field: 'name' | 'address' | 'latitude' | 'longitude', label: string, required = false) => (
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
      slotProps={field === 'latitude' || field === 'longitude' ? { htmlInput: { inputMode: 'decimal' } } : undefined}
    />
  );

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {stale ? <Alert severity="warning">{t('errors.staleVersion')}</Alert> : null}
      <Card>
        <CardHeader title={t('locations.sectionDetails')} />
        <CardContent sx={grid}>
          {text('name', t('locations.name'), true)}
          {text('address', t('locations.address'))}
          <FreeSoloField
            name="type"
            label={t('locations.type')}
            value={values.type}
            options={types.data ?? []}
            loading={types.isLoading}
            onChange={(value) => set('type', value)}
            error={message('type')}
          />
          <FreeSoloField
            name="region"
            label={t('locations.region')}
            value={values.region}
            options={regions.data ?? []}
            loading={regions.isLoading}
            onChange={(value) => set('region', value)}
            error={message('region')}
          />
          <OptionPicker
            name="client_id"
            label={t('locations.client')}
            value={values.client_id}
            options={clients.data ?? []}
            currentName={location?.client_name}
            loading={clients.isLoading}
            noneLabel={t('locations.noClient')}
            onChange={(id) => set('client_id', id)}
            error={message('client_id')}
            testId="location-client"
          />
          <OptionPicker
            name="refiller_id"
            label={t('locations.refiller')}
            value={values.refiller_id}
            options={employees.data ?? []}
            currentName={location?.refiller_name}
            loading={employees.isLoading}
            noneLabel={t('locations.noRefiller')}
            onChange={(id) => set('refiller_id', id)}
            error={message('refiller_id')}
            testId="location-refiller"
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('locations.sectionPlace')} />
        <CardContent sx={grid}>
          {text('latitude', t('locations.latitude'))}
          {text('longitude', t('locations.longitude'))}
          <Autocomplete
            options={zones.data ?? []}
            value={values.time_zone || null}
            loading={zones.isLoading}
            onChange={(_event, next) => set('time_zone', next ?? '')}
            renderInput={(params) => (
              <TextField
                {...params}
                name="time_zone"
                label={t('locations.timeZone')}
                required
                error={Boolean(message('time_zone'))}
                helperText={message('time_zone') ?? t('locations.timeZoneHint')}
                slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'location-time-zone' } }}
              />
            )}
          />
        </CardContent>
      </Card>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1.5 }}>
        <Button variant="outlined" color="inherit" onClick={() => navigate(paths.settings.locationManagement)}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={saving} data-testid="location-submit">
          {creating ? t('locations.newLocation') : t('common.saveChanges')}
        </Button>
      </Box>
    </Box>
  );
}
