import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { Client, ClientForm } from '../../../api/types';
import { email, percentOfBps, phone, problemsOf, texts } from '../../../components/form/rules';
import { blankTexts, textsOf, trimmedTexts, withVersion } from '../../../components/form/values';
import { bpsToPercent, percentToBps } from '../../../components/percent';

const limits = limitsOf('ClientForm');

/** The client's text fields (all but the commission). */
const TEXTS = ['name', 'contact_name', 'email', 'phone'] as const;

/** The client form's checks; the commission is typed in percent and sent in basis points. */
export const clientSchema = z.object({
  ...texts(limits, ['name', 'contact_name']),
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
  return { ...blankTexts(TEXTS), commission: '' };
}

export function valuesFromClient(client: Client): ClientFormValues {
  return { ...textsOf(client, TEXTS), commission: client.commission_bps ? bpsToPercent(client.commission_bps) : '' };
}

export function validateClient(values: ClientFormValues) {
  return problemsOf(clientSchema, values);
}

/** The body for POST (create) or PUT (update, with the version read). Call after `validateClient`. */
export function toClientForm(values: ClientFormValues, version?: number): ClientForm {
  const commission = percentToBps(values.commission);
  return withVersion({ ...trimmedTexts(values, TEXTS), commission_bps: commission.ok ? commission.bps : 0 }, version);
}
