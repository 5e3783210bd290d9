import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { Device, Machine, MachineForm, SalesSource } from '../../../api/types';
import { ids, problemsOf, text, texts } from '../../../components/form/rules';
import { blankTexts, idsOrNull, textsOf, trimmedTexts, withVersion } from '../../../components/form/values';
import { currencyDecimals } from '../../../components/money';

export const DEVICES = ['coin_changer', 'bill_validator', 'cashless'] as const;
export type DeviceKind = (typeof DEVICES)[number];

/** Where the machine's sales come from (see `SalesSourceDto`); `events` by default. */
export const SALES_SOURCES = ['events', 'audit'] as const satisfies readonly SalesSource[];

const limits = limitsOf('MachineForm');
const deviceLimits = limitsOf('DeviceDto');

/** The machine's free texts (trimmed when sent); the currency has its own default. */
const TEXTS = ['name', 'serial', 'mcu_serial', 'terminal_id', 'nayax_machine_id', 'firmware', 'connection_method', 'protocol'] as const;
/** Its links to other records: '' = none. */
const LINKS = ['model_id', 'location_id'] as const;

const deviceSchema = z.object({
  fitted: z.boolean(),
  serial: text(deviceLimits('serial')),
  model: text(deviceLimits('model')),
});

export type DeviceValues = z.infer<typeof deviceSchema>;

/** The machine form's checks (create and settings). */
export const machineSchema = z.object({
  ...texts(limits, ['name', 'serial', 'mcu_serial', 'terminal_id', 'nayax_machine_id']),
  /** '' = none. */
  model_id: z.string(),
  /** '' = none. */
  location_id: z.string(),
  tag_ids: ids(limits('tag_ids')),
  ...texts(limits, ['firmware', 'connection_method', 'protocol']),
  currency: text(limits('currency'), { pattern: /^[A-Z]{3}$/, patternMessage: 'validation.currency' }),
  inactive: z.boolean(),
  sales_source: z.enum(SALES_SOURCES),
  peripherals: z.object({ coin_changer: deviceSchema, bill_validator: deviceSchema, cashless: deviceSchema }),
});

export type MachineFormValues = z.infer<typeof machineSchema>;

export const CONNECTION_METHODS = ['GSM', 'LTE', 'Wi-Fi', 'Ethernet'];
export const PROTOCOLS = ['MDB', 'DEX/UCS', 'EVA-DTS', 'Executive'];
export const CURRENCIES = ['EUR', 'CHF', 'GBP', 'USD'];

function emptyDevice(): DeviceValues {
  return { fitted: false, serial: '', model: '' };
}

export function emptyMachineValues(): MachineFormValues {
  return {
    ...blankTexts([...TEXTS, ...LINKS]),
    tag_ids: [],
    currency: 'EUR',
    inactive: false,
    sales_source: 'events',
    peripherals: { coin_changer: emptyDevice(), bill_validator: emptyDevice(), cashless: emptyDevice() },
  };
}

function deviceValues(device: Device | undefined): DeviceValues {
  return { fitted: Boolean(device?.fitted), serial: device?.serial ?? '', model: device?.model ?? '' };
}

export function valuesFromMachine(machine: Machine): MachineFormValues {
  return {
    ...textsOf(machine, [...TEXTS, ...LINKS]),
    tag_ids: [...(machine.tag_ids ?? [])],
    currency: machine.currency || 'EUR',
    inactive: Boolean(machine.inactive),
    sales_source: machine.sales_source === 'audit' ? 'audit' : 'events',
    peripherals: {
      coin_changer: deviceValues(machine.peripherals?.coin_changer),
      bill_validator: deviceValues(machine.peripherals?.bill_validator),
      cashless: deviceValues(machine.peripherals?.cashless),
    },
  };
}

export function validateMachine(values: MachineFormValues) {
  return problemsOf(machineSchema, values);
}

function deviceForm(device: DeviceValues): Device {
  // A device that is not fitted keeps no serial or model.
  return device.fitted
    ? { fitted: true, serial: device.serial.trim(), model: device.model.trim() }
    : { fitted: false, serial: '', model: '' };
}

/** The body for POST (create) or PUT settings (with the version read). Call after `validateMachine`. */
export function toMachineForm(values: MachineFormValues, version?: number): MachineForm {
  const currency = values.currency.trim() || 'EUR';
  const form: MachineForm = {
    ...trimmedTexts(values, TEXTS),
    ...idsOrNull(values, LINKS),
    tag_ids: values.tag_ids,
    currency,
    decimal_places: currencyDecimals(currency),
    inactive: values.inactive,
    sales_source: values.sales_source,
    peripherals: {
      coin_changer: deviceForm(values.peripherals.coin_changer),
      bill_validator: deviceForm(values.peripherals.bill_validator),
      cashless: deviceForm(values.peripherals.cashless),
    },
  };
  return withVersion(form, version);
}
