import { afterAll, describe, expect, it } from 'vitest';
import i18next from '../../locales/i18n';
import { ApiError } from '../../api/client';
import type { Location } from '../../api/types';
import { fieldMessages } from '../../components/server-errors';
import { parseDecimal, type FieldProblem } from '../../components/validation';
import { CLIENT_ERROR_ALIASES, emptyClientValues, toClientForm, validateClient, valuesFromClient } from './components/client-form-values';
import { deletionFailure } from '../../components/fields';
import { orderingOf, selectedIds } from '../../components/grid';
import {
  emptyLocationValues,
  LOCATION_ERROR_ALIASES,
  toLocationForm,
  validateLocation,
  valuesFromLocation,
} from './components/location-form-values';
import { emptyModelValues, MODEL_ERROR_ALIASES, toModelForm, validateModel } from './components/model-form-values';
import { bpsToPercent, formatPercent, percentToBps } from '../../components/percent';

describe('commission: percent ⇄ basis points', () => {
  it('turns basis points into the percentage shown in the form', () => {
    expect(bpsToPercent(0)).toBe('0');
    expect(bpsToPercent(250)).toBe('2.5');
    expect(bpsToPercent(1234)).toBe('12.34');
    expect(bpsToPercent(5)).toBe('0.05');
    expect(bpsToPercent(10_000)).toBe('100');
    expect(bpsToPercent(1010)).toBe('10.1');
  });

  it('reads typed percentages exactly, with a dot or a comma', () => {
    expect(percentToBps('2.5')).toEqual({ ok: true, bps: 250 });
    expect(percentToBps('2,5')).toEqual({ ok: true, bps: 250 });
    expect(percentToBps(' 12.34 % ')).toEqual({ ok: true, bps: 1234 });
    expect(percentToBps('0.29')).toEqual({ ok: true, bps: 29 });
    expect(percentToBps('7.')).toEqual({ ok: true, bps: 700 });
    expect(percentToBps('')).toEqual({ ok: true, bps: 0 });
    expect(percentToBps('100')).toEqual({ ok: true, bps: 10_000 });
  });

  it('refuses more than two decimals, words, negatives and more than 100 %', () => {
    expect(percentToBps('2.555')).toEqual({ ok: false, reason: 'format' });
    expect(percentToBps('abc')).toEqual({ ok: false, reason: 'format' });
    expect(percentToBps('1e2')).toEqual({ ok: false, reason: 'format' });
    expect(percentToBps('-1')).toEqual({ ok: false, reason: 'range' });
    expect(percentToBps('100.01')).toEqual({ ok: false, reason: 'range' });
  });

  it('round-trips every basis-point value', () => {
    for (let bps = 0; bps <= 10_000; bps += 7) {
      expect(percentToBps(bpsToPercent(bps))).toEqual({ ok: true, bps });
    }
  });

  it('formats the list column in the UI language', () => {
    expect(formatPercent(250, 'en')).toBe('2.5%');
    expect(formatPercent(250, 'fr')).toMatch(/^2,5\s%$/);
  });
});

describe('client form', () => {
  it('needs a name and checks e-mail, phone and commission', () => {
    expect(validateClient(emptyClientValues()).name?.key).toBe('validation.required');
    const good = { ...emptyClientValues(), name: 'Acme', email: 'ops@acme.test', phone: '+39 055 123456', commission: '2,5' };
    expect(validateClient(good)).toEqual({});
    expect(validateClient({ ...good, email: 'nope' }).email?.key).toBe('validation.email');
    expect(validateClient({ ...good, phone: 'call me' }).phone?.key).toBe('validation.phone');
    expect(validateClient({ ...good, commission: '2.555' }).commission?.key).toBe('validation.percent');
    expect(validateClient({ ...good, commission: '101' }).commission).toEqual({
      key: 'validation.range',
      values: { min: 0, max: 100 },
    });
  });

  it('sends basis points and the version', () => {
    const values = { ...emptyClientValues(), name: ' Acme ', commission: '2.5' };
    expect(toClientForm(values)).toEqual({ name: 'Acme', contact_name: '', email: '', phone: '', commission_bps: 250 });
    expect(toClientForm({ ...values, commission: '' }, 4)).toMatchObject({ commission_bps: 0, version: 4 });
    const client = {
      id: 'c1', name: 'Acme', contact_name: 'Ann', email: '', phone: '', commission_bps: 1234,
      createdAt: '', updated_at: '', version: 2,
    };
    expect(valuesFromClient(client).commission).toBe('12.34');
    expect(valuesFromClient({ ...client, commission_bps: 0 }).commission).toBe('');
  });

  it('shows the server commission error under the percentage field', () => {
    const error = new ApiError(400, 'Invalid', { commission_bps: ['Must be between 0 and 10000'] });
    expect(fieldMessages(error, CLIENT_ERROR_ALIASES)).toEqual({ commission: 'Must be between 0 and 10000' });
  });
});

describe('location form', () => {
  const base = { ...emptyLocationValues('Europe/Rome'), name: 'Station' };
  const zones = ['Europe/Rome', 'UTC'];

  it('starts from the given (browser) time zone', () => {
    expect(emptyLocationValues('Europe/Paris').time_zone).toBe('Europe/Paris');
    expect(emptyLocationValues().time_zone).toBeTruthy();
  });

  it('checks name, coordinates and time zone', () => {
    expect(validateLocation(base, zones)).toEqual({});
    expect(validateLocation({ ...base, name: ' ' }).name?.key).toBe('validation.required');
    expect(validateLocation({ ...base, latitude: '91', longitude: '0' }).latitude).toEqual({
      key: 'validation.range',
      values: { min: -90, max: 90 },
    });
    expect(validateLocation({ ...base, latitude: '45', longitude: 'east' }).longitude?.key).toBe('validation.number');
    expect(validateLocation({ ...base, latitude: '45,5' }).longitude?.key).toBe('validation.bothCoordinates');
    expect(validateLocation({ ...base, longitude: '9' }).latitude?.key).toBe('validation.bothCoordinates');
    expect(validateLocation({ ...base, time_zone: '' }).time_zone?.key).toBe('validation.required');
    expect(validateLocation({ ...base, time_zone: 'Mars/Olympus' }, zones).time_zone?.key).toBe('validation.timeZone');
    expect(validateLocation({ ...base, time_zone: 'Mars/Olympus' }).time_zone).toBeUndefined();
  });

  it('builds the body: numbers, nulls for no client / refiller / coordinates, version on update', () => {
    const values = { ...base, type: ' Station ', client_id: 'c1', latitude: '45,4642', longitude: '9.19' };
    expect(toLocationForm(values)).toEqual({
      name: 'Station', address: '', type: 'Station', region: '', client_id: 'c1', refiller_id: null,
      latitude: 45.4642, longitude: 9.19, time_zone: 'Europe/Rome',
    });
    expect(toLocationForm(base, 3)).toMatchObject({ latitude: null, longitude: null, client_id: null, version: 3 });
    const location = {
      id: 'l1', name: 'Station', address: '', type: 'Station', region: 'North', client_id: null, client_name: null,
      refiller_id: 'u1', refiller_name: 'Rita', latitude: 45.5, longitude: null, time_zone: 'UTC',
      createdAt: '', updated_at: '', version: 1,
    } as Location;
    expect(valuesFromLocation(location)).toMatchObject({ client_id: '', refiller_id: 'u1', latitude: '45.5', longitude: '' });
  });

  it('maps the server field names onto the form', () => {
    const error = new ApiError(400, 'Invalid', { location_type: ['Too long'], time_zone: ['Unknown time zone'] });
    expect(fieldMessages(error, LOCATION_ERROR_ALIASES)).toEqual({ type: 'Too long', time_zone: 'Unknown time zone' });
  });
});

describe('model form', () => {
  it('needs name, type and manufacturer', () => {
    const found = validateModel(emptyModelValues());
    expect(Object.keys(found).sort()).toEqual(['manufacturer', 'name', 'type']);
    const values = { name: 'X1', type: ' Snack ', manufacturer: 'Necta' };
    expect(validateModel(values)).toEqual({});
    expect(validateModel({ ...values, type: 'x'.repeat(61) }).type?.key).toBe('validation.maxLength');
    expect(toModelForm(values, 2)).toEqual({ name: 'X1', type: 'Snack', manufacturer: 'Necta', version: 2 });
    expect(fieldMessages(new ApiError(400, 'Invalid', { model_type: ['Required'] }), MODEL_ERROR_ALIASES)).toEqual({ type: 'Required' });
  });
});

describe('validation messages in three languages', () => {
  afterAll(() => i18next.changeLanguage('en'));
  const problems: FieldProblem[] = [
    { key: 'validation.percent' },
    { key: 'validation.range', values: { min: -90, max: 90 } },
    { key: 'validation.bothCoordinates' },
    { key: 'validation.phone' },
    { key: 'validation.number' },
    { key: 'validation.timeZone' },
  ];
  const expected: Record<string, string[]> = {
    en: ['Enter a percentage with at most 2 decimals, e.g. 2.5', 'Must be between -90 and 90', 'Give both latitude and longitude, or neither'],
    fr: ['Saisissez un pourcentage avec au plus 2 décimales, par ex. 2,5', 'Doit être compris entre -90 et 90', 'Indiquez la latitude et la longitude, ou aucune des deux'],
    it: ['Inserisci una percentuale con al massimo 2 decimali, ad es. 2,5', 'Deve essere compreso tra -90 e 90', 'Indica sia la latitudine sia la longitudine, oppure nessuna delle due'],
  };
  for (const language of ['en', 'fr', 'it']) {
    it(`${language}`, async () => {
      await i18next.changeLanguage(language);
      const texts = problems.map((problem) => i18next.t(problem.key, problem.values));
      expect(texts.slice(0, 3)).toEqual(expected[language]);
      for (const text of texts) expect(text).not.toMatch(/validation\.|\{\{/);
    });
  }
});

describe('lists', () => {
  it('maps grid columns to the server ordering', () => {
    const sortable = { name: 'name', type: 'location_type', createdAt: 'created_at' };
    expect(orderingOf([], sortable)).toBe('');
    expect(orderingOf([{ field: 'type', sort: 'desc' }], sortable)).toBe('-location_type');
    expect(orderingOf([{ field: 'createdAt', sort: 'asc' }], sortable)).toBe('created_at');
    expect(orderingOf([{ field: 'client_name', sort: 'asc' }], sortable)).toBe('');
    expect(selectedIds({ type: 'exclude', ids: new Set(['b']) }, [{ id: 'a' }, { id: 'b' }])).toEqual(['a']);
  });

  it('names what blocks a deletion', () => {
    const conflict = new ApiError(409, 'Client "Acme" is used by locations: Station');
    expect(deletionFailure(conflict, 'Deletion failed')).toBe('Deletion failed: Client "Acme" is used by locations: Station');
    expect(deletionFailure(new ApiError(500, 'Boom'), 'Deletion failed')).toBe('Deletion failed');
    expect(parseDecimal(' -12,5 ')).toBe(-12.5);
    expect(parseDecimal('')).toBeNull();
    expect(parseDecimal('1.2.3')).toBeNaN();
  });
});
