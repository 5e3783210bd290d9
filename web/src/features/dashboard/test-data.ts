// The dashboard's replies the tests serve: a full one and its parts.
import type { Dashboard, DashboardToday, DayFigures, SalesFigures } from '../../api/types';

export const figures = (sales: number, quantity: number): SalesFigures => ({
  quantity,
  sales_minor: sales,
  sales_excl_tax_minor: Math.round(sales * 0.9),
  cash_minor: Math.round(sales * 0.6),
  cashless_minor: sales - Math.round(sales * 0.6),
});

/** `count` days from `first` (a bare date), each selling `sales(index)` minor units. */
export function days(first: string, count: number, sales: (index: number) => number): DayFigures[] {
  const start = new Date(`${first}T00:00:00Z`).getTime();
  return Array.from({ length: count }, (_, index) => ({
    date: new Date(start + index * 86_400_000).toISOString().slice(0, 10),
    ...figures(sales(index), index),
  }));
}

export const today: DashboardToday = {
  date: '2026-11-26',
  until: '09:00:41',
  figures: figures(12345, 30),
  yesterday: { date: '2026-11-25', ...figures(10000, 40), cashless_minor: 0 },
  week_before: { date: '2026-11-19', ...figures(15000, 30) },
};

export const full: Dashboard = {
  today,
  month: { date_from: '2026-11-01', date_to: '2026-11-26', previous_from: '2026-10-01', previous_to: '2026-10-26', figures: figures(500000, 900), previous: figures(400000, 800) },
  trend: {
    last_days: days('2026-10-28', 30, (index) => 1000 * (index + 1)),
    month: days('2026-11-01', 26, () => 2000),
    previous_month: days('2026-10-01', 26, () => 1000),
  },
  top_products: [
    { id: 'p1', name: 'Espresso', ...figures(120000, 400) },
    { id: '', name: '', ...figures(1000, 1) },
  ],
  top_machines: [{ id: 'm1', name: 'Lobby snack', ...figures(300000, 500) }],
  attention: [
    {
      machine_id: 'm1',
      machine_name: 'Lobby snack',
      location_id: 'l1',
      location_name: 'Lyon Part-Dieu',
      findings: [
        { reason: 'sold_out', amount: 3 },
        { reason: 'offline', amount: 30 },
        { reason: 'cash_box_full', amount: 25000 },
        { reason: 'held_audits', amount: 2 },
      ],
    },
    {
      machine_id: 'm2',
      machine_name: 'Gym drinks',
      location_id: null,
      findings: [
        { reason: 'offline', amount: null },
        { reason: 'low', amount: 1 },
        { reason: 'expiring', amount: 4 },
      ],
    },
  ],
};
