import type { Client, ClientForm } from '../../../api/types';
import { collect, rules, type FieldErrors, type FieldProblem } from '../../../components/validation';
import { bpsToPercent, percentToBps } from '../../../components/percent';

export interface ClientFormValues {
  name: string;
  contact_name: string;
  email: string;
  phone: string;
  /** The commission as typed, in percent. */
  commission: string;
}

export type ClientField = keyof ClientFormValues;

/** Server field names that differ from the form's. */
export const CLIENT_ERROR_ALIASES = { commission_bps: 'commission' };

export function emptyClientValues(): ClientFormValues {
  return { name: '', contact_name: '', email: '', phone: '', commission: '' };
}

export function valuesFromClient(client: Client): ClientFormValues {
  return {
    name: client.name ?? '',
    contact_name: client.contact_name ?? '',
    email: client.email ?? '',
    phone: client.phone ?? '',
    commission: client.commission_bps ? bpsToPercent(client.commission_bps) : '',
  };
}

function commissionProblem(text: string): FieldProblem | undefined {
  const result = percentToBps(text);
  if (result.ok) return undefined;
  return result.reason === 'range' ? { key: 'validation.range', values: { min: 0, max: 100 } } : { key: 'validation.percent' };
}

export function validateClient(values: ClientFormValues): FieldErrors<ClientField> {
  return collect<ClientField>({
    name: rules.required(values.name) ?? rules.maxLength(values.name, 150),
    contact_name: rules.maxLength(values.contact_name, 150),
    email: rules.optionalEmail(values.email),
    phone: rules.phone(values.phone),
    commission: commissionProblem(values.commission),
  });
}

/** The body for POST (create) or PUT (update, with the version read). Call after `validateClient`. */
export function toClientForm(values: ClientFormValues, version?: number): ClientForm {
  const commission = percentToBps(values.commission);
  const form: ClientForm = {
    name: values.name.trim(),
    contact_name: values.contact_name.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    commission_bps: commission.ok ? commission.bps : 0,
  };
  if (version !== undefined) form.version = version;
  return form;
}
