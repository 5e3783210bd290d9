import { describe, expect, it } from 'vitest';
import { amountToMinor, currencyDecimals, minorToAmount } from '../../components/money';
import { bpsToPercent, percentToBps } from '../../components/percent';
import { emptyMachineValues, toMachineForm, validateMachine } from './components/machine-form-values';
import { newRow, toSelectionForm, validateSelectionRow, type PlanogramRow } from './components/planogram-values';

describe('money: decimal amount ⇄ minor units', () => {
  it('shows minor units as a decimal amount', () => {
    expect(minorToAmount(150)).toBe('1.50');
    expect(minorToAmount(5)).toBe('0.05');
    expect(minorToAmount(0)).toBe('0.00');
    expect(minorToAmount(1999)).toBe('19.99');
    expect(minorToAmount(150, 0)).toBe('150');
    expect(minorToAmount(1234, 3)).toBe('1.234');
  });

  it('reads typed amounts exactly, with a dot or a comma', () => {
    expect(amountToMinor('1.5')).toEqual({ ok: true, minor: 150 });
    expect(amountToMinor('1,50')).toEqual({ ok: true, minor: 150 });
    expect(amountToMinor('0.29')).toEqual({ ok: true, minor: 29 });
    expect(amountToMinor('19.99')).toEqual({ ok: true, minor: 1999 });
    expect(amountToMinor('4.35')).toEqual({ ok: true, minor: 435 });
    expect(amountToMinor('.5')).toEqual({ ok: true, minor: 50 });
    expect(amountToMinor('2')).toEqual({ ok: true, minor: 200 });
    expect(amountToMinor('300', 0)).toEqual({ ok: true, minor: 300 });
  });

  it('round-trips every cent without float errors', () => {
    for (let minor = 0; minor < 2000; minor += 1) {
      expect(amountToMinor(minorToAmount(minor))).toEqual({ ok: true, minor });
    }
  });

  it('refuses words, negatives, too many decimals and huge amounts', () => {
    expect(amountToMinor('abc')).toEqual({ ok: false, reason: 'format' });
    expect(amountToMinor('')).toEqual({ ok: false, reason: 'format' });
    expect(amountToMinor('-1')).toEqual({ ok: false, reason: 'range' });
    expect(amountToMinor('1.505')).toEqual({ ok: false, reason: 'decimals' });
    expect(amountToMinor('1.5', 0)).toEqual({ ok: false, reason: 'decimals' });
    expect(amountToMinor('1000000.01')).toEqual({ ok: false, reason: 'range' });
  });

  it('knows the currencies without cents', () => {
    expect(currencyDecimals('EUR')).toBe(2);
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('KWD')).toBe(3);
  });
});

describe('VAT: percent ⇄ basis points (shared with the commission)', () => {
  it('converts both ways', () => {
    expect(percentToBps('22')).toEqual({ ok: true, bps: 2200 });
    expect(percentToBps('5,5')).toEqual({ ok: true, bps: 550 });
    expect(bpsToPercent(1000)).toBe('10');
  });
});

function row(patch: Partial<PlanogramRow>): PlanogramRow {
  return { ...newRow(), selection: 'A1', product_id: 'p1', max: '10', price: '1.50', current: '4', ...patch };
}

describe('planogram rows', () => {
  it('accepts a complete row and builds the request in minor units', () => {
    expect(validateSelectionRow(row({}), 2)).toEqual({});
    expect(toSelectionForm('m1', row({ expiry_date: '2030-02-28' }), 2)).toEqual({
      machine_id: 'm1',
      selection: 'A1',
      product_id: 'p1',
      max: 10,
      price_minor: 150,
      current: 4,
      expiry_date: '2030-02-28',
    });
    expect(toSelectionForm('m1', row({ price: '0,29' }), 2).price_minor).toBe(29);
  });

  it('flags each bad field', () => {
    const problems = validateSelectionRow(
      { selection: 'A 1', product_id: '', max: '0', price: '1.555', current: '-1', expiry_date: '2030-02-30' },
      2,
    );
    expect(problems.selection?.key).toBe('validation.selectionCode');
    expect(problems.product_id?.key).toBe('validation.required');
    expect(problems.max?.key).toBe('validation.range');
    expect(problems.price?.key).toBe('validation.amountDecimals');
    expect(problems.current?.key).toBe('validation.wholeNumber');
    expect(problems.expiry_date?.key).toBe('validation.date');
  });

  it('refuses more in stock than the max', () => {
    expect(validateSelectionRow(row({ current: '11' }), 2).current?.key).toBe('validation.currentAboveMax');
    expect(validateSelectionRow(row({ current: '10' }), 2)).toEqual({});
  });

  it('follows the machine currency decimals', () => {
    expect(validateSelectionRow(row({ price: '150' }), 0)).toEqual({});
    expect(validateSelectionRow(row({ price: '1.5' }), 0).price?.key).toBe('validation.amountDecimals');
  });
});

describe('machine form', () => {
  it('requires a name and a three-letter currency', () => {
    const problems = validateMachine({ ...emptyMachineValues(), currency: 'eu' });
    expect(problems.name?.key).toBe('validation.required');
    expect(problems.currency?.key).toBe('validation.currency');
  });

  it('drops the serials of devices that are not fitted', () => {
    const values = emptyMachineValues();
    values.name = ' Lobby ';
    values.peripherals.coin_changer = { fitted: true, serial: ' CC-1 ', model: '' };
    values.peripherals.cashless = { fitted: false, serial: 'X', model: 'Y' };
    const form = toMachineForm(values);
    expect(form.name).toBe('Lobby');
    expect(form.peripherals?.coin_changer).toEqual({ fitted: true, serial: 'CC-1', model: '' });
    expect(form.peripherals?.cashless).toEqual({ fitted: false, serial: '', model: '' });
    expect(form.decimal_places).toBe(2);
    expect(form.location_id).toBeNull();
    // Sales come from the machine's events unless the form says otherwise.
    expect(form.sales_source).toBe('events');
    expect(toMachineForm({ ...values, sales_source: 'audit' }).sales_source).toBe('audit');
  });

  it('sends the card terminal id trimmed, and empty to clear it', () => {
    const values = { ...emptyMachineValues(), name: 'Lobby' };
    expect(toMachineForm({ ...values, terminal_id: ' T-0001 ' }).terminal_id).toBe('T-0001');
    expect(toMachineForm(values).terminal_id).toBe('');
  });
});
