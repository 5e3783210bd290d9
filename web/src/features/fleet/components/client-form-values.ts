import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { Client, ClientForm } from '../../../api/types';
import { email, percentOfBps, phone, problemsOf, text } from '../../../components/form/rules';
import { bpsToPercent, percentToBps } from '../../../components/percent';

const limits = limitsOf('ClientForm');

/** The client form's checks; the commission is typed in percent and sent in basis points. */
export const clientSchema = z.object({
  name: text(limits('name')),
  contact_name: text(limits('contact_name')),
  email: email(limits('email')),
  phone: phone(limits('phone')),
  /** The commission as typed, in percent. */
  commission: percentOfBps(limits('commission_bps')),
});

export type ClientFormValues = z.infer<typeof clientSchema>;

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

export function validateClient(values: ClientFormValues) {
  return problemsOf(clientSchema, values);
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
