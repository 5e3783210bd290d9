// The data-policy form: its values from the operator's settings, its checks (the server's rules
// for a domain, the document's limits) and the request body.
import * as z from 'zod/mini';
import type { $RefinementCtx, $ZodType } from 'zod/v4/core';
import { fieldLimits } from '../../api/limits';
import type { OperatorPolicyForm, OperatorSettings } from '../../api/types';
import { addProblem, list, wholeNumber } from '../../components/form/rules';

export interface PolicyValues {
  /** `example.com` or `*.example.com`, as typed; empty: scheduled reports go to users only. */
  mail_domains: string[];
  /** Typed as text: a whole number of minutes. */
  min_task_interval_minutes: string;
}

/** One label of a domain name: letters, digits and inner dashes, at most 63 characters. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A domain as the server keeps it: trimmed and in lower case. */
export function normalDomain(entry: string): string {
  return entry.trim().toLowerCase();
}

/** Whether the server takes `entry` as a mail domain: `example.com`, or `*.example.com` for its subdomains. */
export function isMailDomain(entry: string): boolean {
  const domain = normalDomain(entry);
  const bare = domain.startsWith('*.') ? domain.slice(2) : domain;
  return bare.length > 0 && bare.length <= 253 && bare.includes('.') && bare.split('.').every((label) => LABEL.test(label));
}

/** Domains typed into the box: separated by commas, semicolons or spaces, each once, in lower case. */
export function addDomains(current: readonly string[], typed: string): string[] {
  const out = [...current];
  for (const part of typed.split(/[\s,;]+/)) {
    const domain = normalDomain(part);
    if (domain && !out.includes(domain)) out.push(domain);
  }
  return out;
}

export function valuesFromSettings(settings: Pick<OperatorSettings, 'mail_domains' | 'min_task_interval_minutes'>): PolicyValues {
  return { mail_domains: [...settings.mail_domains], min_task_interval_minutes: String(settings.min_task_interval_minutes) };
}

/** The form's checks: real domains, at most the document's count; the interval within the document's range. */
export function policySchema(): $ZodType<PolicyValues, PolicyValues> {
  const schema = z.object({
    mail_domains: list(z.string(), fieldLimits('OperatorPolicyBody', 'mail_domains')).check(
      z.superRefine((domains, ctx) => {
        const wrong = domains.filter((domain) => !isMailDomain(domain));
        if (wrong.length > 0) addProblem(ctx as $RefinementCtx<unknown>, [], 'dataPolicy.invalidDomains', { domains: wrong.join(', '), count: wrong.length });
      }),
    ),
    min_task_interval_minutes: wholeNumber(fieldLimits('OperatorPolicyBody', 'min_task_interval_minutes'), { required: true }),
  });
  return schema as unknown as $ZodType<PolicyValues, PolicyValues>;
}

/** `PUT /api/settings/operator/` with the version read. */
export function toPolicyForm(values: PolicyValues, version: number): OperatorPolicyForm {
  return {
    mail_domains: values.mail_domains.map(normalDomain).filter(Boolean),
    min_task_interval_minutes: Number(values.min_task_interval_minutes.trim()),
    version,
  };
}
