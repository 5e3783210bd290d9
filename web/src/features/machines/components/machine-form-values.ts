import type { Device, Machine, MachineForm } from '../../../api/types';
import { currencyDecimals } from '../../../components/money';
import { collect, rules, type FieldErrors, type FieldProblem } from '../../../components/validation';

export const DEVICES = ['coin_changer', 'bill_validator', 'cashless'] as const;
export type DeviceKind = (typeof DEVICES)[number];

export interface DeviceValues {
  fitted: boolean;
  serial: string;
  model: string;
}

export interface MachineFormValues {
  name: string;
  serial: string;
  mcu_serial: string;
  /** '' = none. */
  model_id: string;
  /** '' = none. */
  location_id: string;
  tag_ids: string[];
  firmware: string;
  connection_method: string;
  protocol: string;
  currency: string;
  inactive: boolean;
  peripherals: Record<DeviceKind, DeviceValues>;
}

export type MachineTextField = 'name' | 'serial' | 'mcu_serial' | 'firmware' | 'connection_method' | 'protocol' | 'currency';
export type MachineField = MachineTextField | 'model_id' | 'location_id' | 'tag_ids' | `peripherals.${DeviceKind}`;

export const CONNECTION_METHODS = ['GSM', 'LTE', 'Wi-Fi', 'Ethernet'];
export const PROTOCOLS = ['MDB', 'DEX/UCS', 'EVA-DTS', 'Executive'];
export const CURRENCIES = ['EUR', 'CHF', 'GBP', 'USD'];

function emptyDevice(): DeviceValues {
  return { fitted: false, serial: '', model: '' };
}

export function emptyMachineValues(): MachineFormValues {
  return {
    name: '',
    serial: '',
    mcu_serial: '',
    model_id: '',
    location_id: '',
    tag_ids: [],
    firmware: '',
    connection_method: '',
    protocol: '',
    currency: 'EUR',
    inactive: false,
    peripherals: { coin_changer: emptyDevice(), bill_validator: emptyDevice(), cashless: emptyDevice() },
  };
}

function deviceValues(device: Device | undefined): DeviceValues {
  return { fitted: Boolean(device?.fitted), serial: device?.serial ?? '', model: device?.model ?? '' };
}

export function valuesFromMachine(machine: Machine): MachineFormValues {
  return {
    name: machine.name ?? '',
    serial: machine.serial ?? '',
    mcu_serial: machine.mcu_serial ?? '',
    model_id: machine.model_id ?? '',
    location_id: machine.location_id ?? '',
    tag_ids: [...(machine.tag_ids ?? [])],
    firmware: machine.firmware ?? '',
    connection_method: machine.connection_method ?? '',
    protocol: machine.protocol ?? '',
    currency: machine.currency || 'EUR',
    inactive: Boolean(machine.inactive),
    peripherals: {
      coin_changer: deviceValues(machine.peripherals?.coin_changer),
      bill_validator: deviceValues(machine.peripherals?.bill_validator),
      cashless: deviceValues(machine.peripherals?.cashless),
    },
  };
}

function currencyProblem(value: string): FieldProblem | undefined {
  const v = value.trim();
  if (!v) return undefined;
  return /^[A-Z]{3}$/.test(v) ? undefined : { key: 'validation.currency' };
}

function deviceProblem(device: DeviceValues): FieldProblem | undefined {
  return rules.maxLength(device.serial, 64) ?? rules.maxLength(device.model, 64);
}

export function validateMachine(values: MachineFormValues): FieldErrors<MachineField> {
  return collect<MachineField>({
    name: rules.required(values.name) ?? rules.maxLength(values.name, 150),
    serial: rules.maxLength(values.serial, 64),
    mcu_serial: rules.maxLength(values.mcu_serial, 64),
    firmware: rules.maxLength(values.firmware, 64),
    connection_method: rules.maxLength(values.connection_method, 40),
    protocol: rules.maxLength(values.protocol, 40),
    currency: currencyProblem(values.currency),
    model_id: undefined,
    location_id: undefined,
    tag_ids: undefined,
    'peripherals.coin_changer': deviceProblem(values.peripherals.coin_changer),
    'peripherals.bill_validator': deviceProblem(values.peripherals.bill_validator),
    'peripherals.cashless': deviceProblem(values.peripherals.cashless),
  });
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
    name: values.name.trim(),
    serial: values.serial.trim(),
    mcu_serial: values.mcu_serial.trim(),
    model_id: values.model_id || null,
    location_id: values.location_id || null,
    tag_ids: values.tag_ids,
    firmware: values.firmware.trim(),
    connection_method: values.connection_method.trim(),
    protocol: values.protocol.trim(),
    currency,
    decimal_places: currencyDecimals(currency),
    inactive: values.inactive,
    peripherals: {
      coin_changer: deviceForm(values.peripherals.coin_changer),
      bill_validator: deviceForm(values.peripherals.bill_validator),
      cashless: deviceForm(values.peripherals.cashless),
    },
  };
  if (version !== undefined) form.version = version;
  return form;
}
