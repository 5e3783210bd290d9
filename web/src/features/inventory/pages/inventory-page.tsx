import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import StoreIcon from '@mui/icons-material/StorefrontOutlined';
import { useReportPermission } from '../../../auth/use-permission';
import { ExportMenu } from '../../../components/export-menu';
import { INVENTORY_CONTROLS, INVENTORY_TABS, useReportFilters, type InventoryTab } from '../../../components/report-filters/report-filter-state';
import { ReportScreen } from '../../../components/reports/report-screen';
import { withChanges } from '../../../components/server-list/use-list-state';
import { exportInventory } from '../api/inventory';
import { MachineStockDrawer } from '../components/machine-stock-drawer';
import { ComponentStockTable, ProductStockTable } from '../components/stock-tables';

/** Inventory report: the stock now by product and by component (tab in `?tab=`), and one machine's selections. */
export default function InventoryPage() {
  const { t } = useTranslation();
  const allowed = useReportPermission('inventory_report');
  const state = useReportFilters(INVENTORY_CONTROLS);
  const [searchParams, setSearchParams] = useSearchParams();
  const [stockOpen, setStockOpen] = useState(false);

  const canList = (tab: InventoryTab) => allowed(`${tab}_list`);
  const canExport = (tab: InventoryTab) => allowed(`${tab}_export`);
  const visible = INVENTORY_TABS.filter((tab) => canList(tab) || canExport(tab));
  const requested = INVENTORY_TABS.find((tab) => tab === searchParams.get('tab'));
  const tab: InventoryTab = requested && visible.includes(requested) ? requested : (visible[0] ?? 'products');
  // Another tab is another list: its paging and search start over.
  const chooseTab = (next: InventoryTab) =>
    setSearchParams((current) => withChanges(current, { tab: next === 'products' ? null : next, page: null, search: null }), { replace: true });

  const machines = state.filters.machines;
  const action = (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
      {allowed('products_list') ? (
        <Button color="inherit" variant="outlined" startIcon={<StoreIcon />} onClick={() => setStockOpen(true)} data-testid="machine-stock-open">
          {t('inventory.machineStock')}
        </Button>
      ) : null}
      {canExport(tab) ? <ExportMenu key={tab} testId="inventory-export" onExport={(format) => exportInventory(tab, format, state.query)} /> : null}
    </Stack>
  );

  return (
    <ReportScreen
      name="inventory"
      state={state}
      action={action}
      exportOnly={!canList(tab)}
      before={
        visible.length > 1 ? (
          <Tabs value={tab} onChange={(_event, value: InventoryTab) => chooseTab(value)} variant="scrollable" allowScrollButtonsMobile>
            {visible.map((name) => (
              <Tab key={name} value={name} label={t(`inventory.tabs.${name}`)} data-testid={`inventory-tab-${name}`} />
            ))}
          </Tabs>
        ) : null
      }
    >
      {tab === 'products' ? <ProductStockTable key="products" query={state.query} /> : <ComponentStockTable key="components" query={state.query} />}
      {stockOpen ? <MachineStockDrawer open onClose={() => setStockOpen(false)} initialMachine={machines.length === 1 ? machines[0] : null} /> : null}
    </ReportScreen>
  );
}
