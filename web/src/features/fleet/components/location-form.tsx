import { lazy, Suspense, useMemo } from 'react';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import TextField from '@mui/material/TextField';
import type { Location } from '../../../api/types';
import { Form, FormAlerts, FormFooter, FreeSoloInput, OptionInput, TextInput, useFieldMessage, useServerForm } from '../../../components/form';
import { toast } from '../../../components/snackbar';
import { paths } from '../../../routes/paths';
import { useClientOptions, useEmployeeOptions, useRegions } from '../../../api/filter-options';
import { useLocationTypes, useTimeZones } from '../api/filters';
import { useCreateLocation, useUpdateLocation } from '../api/locations';
import { LOCATION_ERROR_ALIASES, locationSchema, toLocationForm, typedPoint, type LocationFormValues } from './location-form-values';

interface Props {
  initial: LocationFormValues;
  location?: Location;
}

const grid = { display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } } as const;

// The map picker comes with Leaflet in a script of its own, fetched when the form shows.
const LocationPicker = lazy(() => import('../../../components/map/location-picker'));
const PICKER_HEIGHT = 280;

/** The map beside the coordinates: a click (or its centre, with the keyboard) fills both fields. */
function LocationMapInput() {
  const { t } = useTranslation();
  const { control, setValue } = useFormContext<LocationFormValues>();
  const [latitude, longitude] = useWatch({ control, name: ['latitude', 'longitude'] });
  const point = typedPoint(latitude, longitude);
  const pick = (lat: number, lon: number) => {
    setValue('latitude', String(lat), { shouldDirty: true, shouldValidate: true });
    setValue('longitude', String(lon), { shouldDirty: true, shouldValidate: true });
  };
  return (
    <Box sx={{ gridColumn: '1 / -1' }}>
      <Suspense fallback={<Box sx={{ height: PICKER_HEIGHT }} />}>
        <LocationPicker
          latitude={point?.latitude ?? null}
          longitude={point?.longitude ?? null}
          onPick={pick}
          label={t('locations.map')}
          hint={t('locations.mapKeys')}
          centreLabel={t('locations.mapCentre')}
          height={PICKER_HEIGHT}
        />
      </Suspense>
    </Box>
  );
}

/** The time zone: one of the server's IANA zones. */
function TimeZoneInput({ zones, loading }: { zones: string[]; loading: boolean }) {
  const { t } = useTranslation();
  const { field } = useController<LocationFormValues, 'time_zone'>({ name: 'time_zone' });
  const message = useFieldMessage('time_zone');
  return (
    <Autocomplete
      options={zones}
      value={field.value || null}
      loading={loading}
      onChange={(_event, next) => field.onChange(next ?? '')}
      renderInput={(params) => (
        <TextField
          {...params}
          name="time_zone"
          label={t('locations.timeZone')}
          required
          error={Boolean(message)}
          helperText={message ?? t('locations.timeZoneHint')}
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'location-time-zone' } }}
        />
      )}
    />
  );
}

export function LocationForm({ initial, location }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const creating = !location;
  const clients = useClientOptions();
  const employees = useEmployeeOptions();
  const types = useLocationTypes();
  const regions = useRegions();
  const zones = useTimeZones();
  const schema = useMemo(() => locationSchema(zones.data), [zones.data]);
  const form = useServerForm({ schema, defaultValues: initial, aliases: LOCATION_ERROR_ALIASES, versioned: !creating });
  const create = useCreateLocation();
  const update = useUpdateLocation(location?.id ?? '');

  const submit = form.submitWith(
    async (values) => {
      if (creating) {
        await create.mutateAsync(toLocationForm(values));
        toast.success(t('success.locationCreated'));
      } else {
        await update.mutateAsync(toLocationForm(values, location.version));
        toast.success(t('success.locationUpdated'));
      }
      navigate(paths.settings.locationManagement);
    },
    { onError: () => toast.error(creating ? t('errors.locationCreate') : t('errors.locationUpdate')) },
  );

  const decimal = { htmlInput: { inputMode: 'decimal' as const } };

  return (
    <Form form={form} onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      <FormAlerts stale={form.stale} />
      <Card>
        <CardHeader title={t('locations.sectionDetails')} />
        <CardContent sx={grid}>
          <TextInput name="name" label={t('locations.name')} required />
          <TextInput name="address" label={t('locations.address')} />
          <FreeSoloInput name="type" label={t('locations.type')} options={types.data ?? []} loading={types.isLoading} />
          <FreeSoloInput name="region" label={t('locations.region')} options={regions.data ?? []} loading={regions.isLoading} />
          <OptionInput
            name="client_id"
            label={t('locations.client')}
            options={clients.data ?? []}
            currentName={location?.client_name}
            loading={clients.isLoading}
            noneLabel={t('locations.noClient')}
            testId="location-client"
          />
          <OptionInput
            name="refiller_id"
            label={t('locations.refiller')}
            options={employees.data ?? []}
            currentName={location?.refiller_name}
            loading={employees.isLoading}
            noneLabel={t('locations.noRefiller')}
            testId="location-refiller"
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader title={t('locations.sectionPlace')} />
        <CardContent sx={grid}>
          <TextInput name="latitude" label={t('locations.latitude')} slotProps={decimal} />
          <TextInput name="longitude" label={t('locations.longitude')} slotProps={decimal} />
          <TimeZoneInput zones={zones.data ?? []} loading={zones.isLoading} />
          <LocationMapInput />
        </CardContent>
      </Card>
      <FormFooter cancelTo={paths.settings.locationManagement} submitLabel={creating ? t('locations.newLocation') : t('common.saveChanges')} testId="location-submit" />
    </Form>
  );
}
