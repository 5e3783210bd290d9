import type { Shape } from '../../../locales/shape';

// The inventory report's strings (English, the reference).
export const en = {
  inventory: {
    tabs: { products: 'Products', components: 'Components' },
    product: 'Product',
    component: 'Component',
    units: 'Unit',
    quantity: 'Quantity',
    capacity: 'Capacity',
    fill: 'Fill',
    value: 'Value',
    machines: 'Machines',
    selections: 'Selections',
    soldOut: 'Sold out',
    low: 'Low',
    ok: 'OK',
    nextExpiry: 'Soonest expiry',
    byProduct: 'Stock by product',
    byComponent: 'Stock by component',
    noStock: 'No stock in the chosen machines',
    machineStock: 'Machine stock',
    machine: 'Machine',
    chooseMachine: 'Choose a machine to see its selections.',
    soonestFirst: 'Expiring soonest first',
    noSelections: 'This machine has no selections',
    selection: 'Selection',
    current: 'Current',
    max: 'Max',
    state: 'State',
    price: 'Price',
    expiry: 'Expiry date',
    expired: 'Expired',
    expiresSoon: 'Expires within 3 days',
    loadFailed: 'The machine’s stock could not be loaded.',
  },
};

/** The shape the other languages of the area must fill. */
export type Translations = Shape<typeof en>;
