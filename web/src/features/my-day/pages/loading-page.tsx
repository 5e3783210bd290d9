import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import GlobalStyles from '@mui/material/GlobalStyles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import PrintIcon from '@mui/icons-material/PrintOutlined';
import { formatCount } from '../../../components/format';
import { Page } from '../../../components/page';
import { toast } from '../../../components/snackbar';
import { useOnline } from '../../../components/use-online';
import { Busy, OfflineCopy, Section, TOUCH } from '../components/parts';
import { isLoaded, loadingChanges } from '../loading-logic';
import { localDay, useDayLoadingList, useMyRoute, useSaveLoading, type Fetched, type LoadingList } from '../my-day-data';

/** A4 on paper: the lists only, black on white. */
const PRINT = (
  <GlobalStyles
    styles={{
      '@page': { size: 'A4', margin: '12mm' },
      '@media print': { body: { background: '#fff', color: '#000' }, '.no-print': { display: 'none !important' } },
    }}
  />
);

function LoadingTables({ list, canTick }: { list: LoadingList; canTick: boolean }) {
  const { t, i18n } = useTranslation();
  const save = useSaveLoading();
  const count = (value: number) => formatCount(value, i18n.language);
  const tick = (productId: string, ticked: boolean) =>
    save.mutate(loadingChanges(list, productId, ticked), { onError: () => toast.error(t('myDay.loadingSaveFailed')) });
  return (
    <>
      {list.routes.length > 0 ? <Typography>{t('myDay.routesOfList', { names: list.routes.map((route) => route.name).join(', ') })}</Typography> : null}
      <Section title={t('myDay.byProduct')} testId="loading-products">
        <Table size="small" sx={{ '& td, & th': { fontSize: '1rem' } }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('myDay.product')}</TableCell>
              <TableCell align="right">{t('myDay.units')}</TableCell>
              <TableCell align="right">{t('myDay.casesLoose')}</TableCell>
              <TableCell align="center">{t('myDay.loaded')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.products.map((product) => (
              <TableRow key={product.product_id} data-testid="loading-product" data-product={product.product_id} data-loaded={product.loaded}>
                <TableCell>{product.product_name}</TableCell>
                <TableCell align="right">{count(product.units)}</TableCell>
                <TableCell align="right">{product.case_size ? `${count(product.cases)} × ${product.case_size} + ${count(product.loose)}` : count(product.loose)}</TableCell>
                <TableCell align="center" padding="none">
                  <Checkbox
                    checked={isLoaded(product)}
                    indeterminate={product.loaded > 0 && !isLoaded(product)}
                    disabled={!canTick || save.isPending}
                    onChange={(event) => tick(product.product_id, event.target.checked)}
                    slotProps={{ input: { 'aria-label': t('myDay.tickLoaded', { product: product.product_name }) } }}
                    sx={{ width: 48, height: 48 }}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Section>
      <Section title={t('myDay.byStop')} testId="loading-stops">
        {list.stops.map((stop) => (
          <Box key={`${stop.route_id}:${stop.machine_id}`} sx={{ breakInside: 'avoid' }} data-testid="loading-stop">
            <Typography sx={{ fontWeight: 700 }}>
              {t('myDay.stopTote', { order: stop.order, machine: stop.machine_name })}
              {list.routes.length > 1 ? ` · ${stop.route_name}` : ''}
            </Typography>
            <Box component="ul" sx={{ m: 0, pl: 3 }}>
              {stop.tote.map((item) => (
                <li key={item.product_id}>
                  {count(item.units)} × {item.product_name}
                </li>
              ))}
            </Box>
          </Box>
        ))}
      </Section>
    </>
  );
}

function Loaded({ fetched }: { fetched: Fetched<LoadingList | null> | undefined }) {
  const { t } = useTranslation();
  const online = useOnline();
  if (!fetched) return null;
  return (
    <>
      <OfflineCopy offline={fetched.offline} savedAt={fetched.savedAt} />
      {online ? null : <Alert severity="info" className="no-print">{t('myDay.loadingOffline')}</Alert>}
      {fetched.value ? <LoadingTables list={fetched.value} canTick={online && !fetched.offline} /> : <Typography>{t('myDay.noLoadingList')}</Typography>}
    </>
  );
}

/** `/my-day/loading?route=ID` or `?date=YYYY-MM-DD`: the van's loading list, ticked off as loaded, printable. */
export default function LoadingPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const routeId = search.get('route') ?? '';
  const date = search.get('date') ?? localDay(new Date());
  const byRoute = useMyRoute(routeId);
  const byDay = useDayLoadingList(date, !routeId);
  const query = routeId ? byRoute : byDay;
  const fetched: Fetched<LoadingList | null> | undefined = routeId
    ? byRoute.data && { ...byRoute.data, value: byRoute.data.value.loading }
    : byDay.data;
  return (
    <Page title={t('myDay.loading')}>
      {PRINT}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('myDay.loading')}
        </Typography>
        <Button className="no-print" variant="outlined" startIcon={<PrintIcon />} onClick={() => window.print()} sx={TOUCH}>
          {t('myDay.print')}
        </Button>
      </Box>
      <Box className="no-print" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
        <ToggleButtonGroup
          exclusive
          fullWidth
          value={routeId ? 'route' : 'day'}
          aria-label={t('myDay.loadingFor')}
          onChange={(_event, scope: string | null) => {
            if (scope === 'day') setSearch({ date });
          }}
        >
          <ToggleButton value="route" disabled={!routeId} sx={TOUCH}>
            {t('myDay.loadingRoute')}
          </ToggleButton>
          <ToggleButton value="day" sx={TOUCH}>
            {t('myDay.loadingDay')}
          </ToggleButton>
        </ToggleButtonGroup>
        {routeId ? null : (
          <TextField type="date" label={t('myDay.day')} value={date} onChange={(event) => event.target.value && setSearch({ date: event.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
        )}
      </Box>
      {query.isPending && (routeId || byDay.fetchStatus !== 'idle') ? <Busy /> : null}
      {query.isError ? <Alert severity="error">{t('myDay.routeFailed')}</Alert> : null}
      <Loaded fetched={fetched} />
    </Page>
  );
}
