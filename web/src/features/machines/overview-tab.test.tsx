import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18next from '../../locales/i18n';
import type { Machine, MachineOverview } from '../../api/types';
import { fakeApi } from '../../test/fake-api';
import { OverviewTab } from './components/overview-tab';

const machine = {
  id: 'm1', name: 'Lobby snack', currency: 'EUR', decimal_places: 2, sales_source: 'events', serial: '', mcu_serial: '',
  firmware: '', connection_method: '', protocol: '', inactive: false, tags: [], tag_ids: [], peripherals: {},
  createdAt: '2026-01-02T10:00:00Z', updated_at: '2026-01-02T10:00:00Z', version: 1,
} as unknown as Machine;

const empty: MachineOverview = { status: 'unknown', currency: 'EUR', connection_method: '', protocol: '', firmware: '' };

function renderOverview(overview: MachineOverview) {
  fakeApi({ 'GET /api/machines/m1/dashboard/overview/': () => ({ status: 200, body: { data: overview } }) });
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queries}>
      <OverviewTab machine={machine} />
    </QueryClientProvider>,
  );
}

const value = (testId: string) => screen.getByTestId(testId).lastElementChild?.textContent;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en');
});

describe('machine overview', () => {
  it('shows "—" for what no event has reported yet', async () => {
    renderOverview(empty);
    await screen.findByTestId('machine-overview');
    for (const id of ['overview-last-sale', 'overview-last-updated', 'overview-power', 'overview-signal', 'overview-cash-box', 'overview-tubes']) {
      expect(value(id), id).toBe('—');
    }
    expect(value('overview-status')).toBe('Unknown');
  });

  it("shows the events' values: money in the machine currency, dates in the user's language, the signal with its unit", async () => {
    await i18next.changeLanguage('fr');
    renderOverview({
      ...empty,
      status: 'ok',
      power: 'mains',
      signal: -71,
      cash_box: 12345,
      bill_stacker: 0,
      value_of_tubes: 2050,
      last_sale: '2026-03-02T08:05:00Z',
    });
    await screen.findByTestId('machine-overview');
    expect(value('overview-status')).toBe('OK');
    expect(value('overview-power')).toBe('Secteur');
    expect(value('overview-signal')).toBe('-71 dBm');
    expect(value('overview-cash-box')?.replace(/\s/g, ' ')).toBe('123,45 €');
    expect(value('overview-bill-stacker')?.replace(/\s/g, ' ')).toBe('0,00 €');
    expect(value('overview-last-sale')).toMatch(/2026/);
    expect(value('overview-last-sale')).toMatch(/mars/);
  });

  it('shows a signal quality as a percentage', async () => {
    renderOverview({ ...empty, signal: 80, status: 'coin jam' });
    await screen.findByTestId('machine-overview');
    expect(value('overview-signal')).toBe('80%');
    expect(value('overview-status')).toBe('coin jam');
  });
});
