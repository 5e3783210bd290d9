// At a stop: the visit form (found / filled / removed with reason per selection, the cash with its
// bag, a note) and "could not service" with its reason. Both book into the outbox first; a
// refused booking opens here again to be fixed (`fixing`), with the server's messages on it.
import { useEffect, useMemo, useState } from 'react';
import { useFormState } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { ApiError } from '../../../api/client';
import type { NotServicedReason, PicklistLine } from '../../../api/types';
import { applyServerError, Form, FormAlerts, TextInput, useServerForm } from '../../../components/form';
import { text } from '../../../components/form/rules';
import { minorToAmount } from '../../../components/money';
import { toast } from '../../../components/snackbar';
import { VisitCash, VisitLines } from '../../../components/visit/visit-lines';
import { toFillBody, VISIT_ALIASES, visitSchema, visitValues, type VisitValues } from '../../../components/visit/visit-rules';
import { paths } from '../../../routes/paths';
import type { OutboxItem } from '../outbox-item';
import { useOutbox } from '../use-outbox';
import { Section, TOUCH } from './parts';

export const NOT_SERVICED_REASONS = ['no_access', 'out_of_order', 'site_closed', 'other'] as const satisfies readonly NotServicedReason[];
export const FILL_PATH = '/api/machines/fill-from-route/';
const NOTE_MAX = 500;

type Values = VisitValues & { note: string };

interface SentLine {
  selection: string;
  found: number;
  filled: number;
  removed: number;
  removed_reason?: string;
}

/** The form's values of a booking the server refused: its lines over the picklist's. */
export function valuesFromBody(lines: readonly PicklistLine[], body: Record<string, unknown>, decimals: number): Values {
  const start = visitValues(lines);
  const sent = new Map(((body.lines as SentLine[] | undefined) ?? []).map((line) => [line.selection, line]));
  return {
    lines: start.lines.map((line) => {
      const booked = sent.get(line.selection);
      if (!booked) return line;
      const reason = booked.removed_reason;
      return {
        ...line,
        found: String(booked.found),
        filled: String(booked.filled),
        removed: String(booked.removed),
        removed_reason: reason === 'expired' || reason === 'damaged' || reason === 'other' ? reason : '',
      };
    }),
    cash_bag: typeof body.cash_bag === 'string' ? body.cash_bag : '',
    collected: typeof body.collected_minor === 'number' ? minorToAmount(body.collected_minor, decimals) : '',
    note: typeof body.note === 'string' ? body.note : '',
  };
}

interface Props {
  routeId: string;
  machineId: string;
  machineName: string;
  lines: PicklistLine[];
  decimals: number;
  currency: string;
  /** A refused booking being fixed. */
  fixing?: OutboxItem;
}

export function VisitPanel({ routeId, machineId, machineName, lines, decimals, currency, fixing }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { outbox } = useOutbox();
  const schema = useMemo(() => z.extend(visitSchema(decimals), { note: text({ required: false, maxLength: NOTE_MAX }) }), [decimals]);
  const form = useServerForm<Values>({
    schema,
    defaultValues: fixing?.kind === 'visit' && !fixing.body.not_serviced ? valuesFromBody(lines, fixing.body, decimals) : { ...visitValues(lines), note: '' },
    aliases: VISIT_ALIASES,
  });
  const saving = useFormState({ control: form.control }).isSubmitting;

  // A refused booking shows the server's field messages where they belong.
  useEffect(() => {
    const refusal = fixing?.refusal;
    if (refusal) applyServerError(form, new ApiError(refusal.status, refusal.message, refusal.errors), { aliases: VISIT_ALIASES });
  }, [fixing, form]);

  /** Books into the outbox (or resends the fixed booking) and goes back to the route. */
  const book = async (body: Record<string, unknown>) => {
    if (fixing) await outbox.resend(fixing.id, body);
    else {
      await outbox.add({ kind: 'visit', path: FILL_PATH, body, routeId, machineId, label: machineName });
      void outbox.flush();
    }
    toast.info(t('myDay.queuedToast', { machine: machineName }));
    navigate(paths.myDay.route(routeId));
  };

  const submit = form.submitWith(async (values) => {
    // The outbox gives the booking its request_id.
    const { request_id: _none, ...body } = toFillBody(values, { routeId, machineId, requestId: '' }, decimals);
    await book({ ...body, ...(values.note.trim() ? { note: values.note.trim() } : {}) });
  });

  const [reason, setReason] = useState<NotServicedReason | ''>(
    fixing && typeof fixing.body.not_serviced === 'string' ? (fixing.body.not_serviced as NotServicedReason) : '',
  );
  const [reasonNote, setReasonNote] = useState(fixing && typeof fixing.body.not_serviced === 'string' && typeof fixing.body.note === 'string' ? fixing.body.note : '');
  const bookNotServiced = () => {
    if (!reason) return;
    void book({ route_id: routeId, machine_id: machineId, lines: [], not_serviced: reason, ...(reasonNote.trim() ? { note: reasonNote.trim() } : {}) });
  };

  return (
    <>
      <Section title={t('myDay.visit')} testId="my-visit">
        <Form form={form} onSubmit={submit} data-testid="my-visit-form" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <FormAlerts testId="my-visit-error" />
          <VisitLines lines={lines} size="medium" />
          <VisitCash currency={currency} />
          <TextInput name="note" label={t('myDay.note')} helperText={t('myDay.noteHint')} multiline minRows={2} slotProps={{ htmlInput: { maxLength: NOTE_MAX, 'data-testid': 'visit-note' } }} />
          <Button type="submit" variant="contained" size="large" disabled={saving} sx={{ ...TOUCH, minHeight: 56 }} data-testid="visit-submit">
            {t('myDay.bookVisit')}
          </Button>
        </Form>
      </Section>
      <Section title={t('myDay.notServiced')} testId="my-not-serviced">
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          {fixing?.refusal && typeof fixing.body.not_serviced === 'string' ? <Alert severity="error">{fixing.refusal.message}</Alert> : null}
          <TextField
            select
            label={t('myDay.notServicedReason')}
            value={reason}
            onChange={(event) => setReason(event.target.value as NotServicedReason)}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'not-serviced-reason' } as object } }}
          >
            {NOT_SERVICED_REASONS.map((value) => (
              <MenuItem key={value} value={value} sx={{ minHeight: 48 }}>
                {t(`myDay.notServicedReasons.${value}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField label={t('myDay.note')} value={reasonNote} onChange={(event) => setReasonNote(event.target.value)} multiline minRows={2} slotProps={{ htmlInput: { maxLength: NOTE_MAX } }} />
          <Button variant="outlined" color="inherit" size="large" disabled={!reason} onClick={bookNotServiced} sx={{ ...TOUCH, minHeight: 56 }} data-testid="not-serviced-submit">
            {t('myDay.bookNotServiced')}
          </Button>
        </Box>
      </Section>
    </>
  );
}
