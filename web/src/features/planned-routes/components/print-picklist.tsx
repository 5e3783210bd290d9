import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import GlobalStyles from '@mui/material/GlobalStyles';
import type { PlannedRoute, RouteStop, StopPicklist } from '../../../api/types';
import { componentsText, formatClock, formatCount, formatDate } from '../../../components/format';
import { routeType } from '../route-logic';

/** Printing shows this view alone: the app (and its dialogs and snackbars) is hidden on paper. */
const PRINT_CLASS = 'vf-print';

const PRINT_STYLES = {
  [`.${PRINT_CLASS}`]: { display: 'none' },
  '@page': { margin: '12mm' },
  '@media print': {
    [`body > *:not(.${PRINT_CLASS})`]: { display: 'none !important' },
    [`.${PRINT_CLASS}`]: { display: 'block !important', color: '#000', background: '#fff', font: '11pt/1.35 system-ui, sans-serif' },
    [`.${PRINT_CLASS} table`]: { width: '100%', borderCollapse: 'collapse', margin: '4pt 0 14pt' },
    [`.${PRINT_CLASS} th, .${PRINT_CLASS} td`]: { border: '1px solid #555', padding: '3pt 5pt', textAlign: 'left', verticalAlign: 'top' },
    [`.${PRINT_CLASS} .num`]: { textAlign: 'right', whiteSpace: 'nowrap' },
    [`.${PRINT_CLASS} .blank`]: { width: '16mm' },
    [`.${PRINT_CLASS} section`]: { breakInside: 'avoid' },
    [`.${PRINT_CLASS} h1`]: { fontSize: '16pt', margin: '0 0 2pt' },
    [`.${PRINT_CLASS} h2`]: { fontSize: '12pt', margin: '10pt 0 2pt' },
  },
} as const;

interface PrintPicklistProps {
  route: PlannedRoute;
  stops: RouteStop[];
  picklists: StopPicklist[];
}

/**
 * The picklist on paper: each stop in order with what to bring and boxes to write what was found,
 * filled and removed, then the total to load per product. Rendered beside the app (a portal) while
 * printing; the print stylesheet hides everything else.
 */
export function PrintPicklist({ route, stops, picklists }: PrintPicklistProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const linesOf = (machineId: string) => picklists.find((stop) => stop.machine_id === machineId)?.lines ?? [];
  const type = routeType(route.route_type);
  const totals = new Map<string, { name: string; quantity: number }>();
  for (const stop of picklists) {
    for (const line of stop.lines) {
      const known = totals.get(line.product_id) ?? { name: line.product_name, quantity: 0 };
      known.quantity += line.to_bring;
      totals.set(line.product_id, known);
    }
  }
  return createPortal(
    <>
      <GlobalStyles styles={PRINT_STYLES} />
      <div className={PRINT_CLASS} data-testid="print-picklist">
        <h1>{t('plannedRoutes.print.title', { name: route.name })}</h1>
        <p>{[formatDate(route.visit_date, language), route.employee_name, type ? t(`plannedRoutes.routeTypes.${type}`) : route.route_type].filter(Boolean).join(' · ')}</p>
        {stops.map((stop) => (
          <section key={stop.machine_id}>
            <h2>
              {stop.order}. {stop.machine_name}
              {stop.location_name ? ` — ${stop.location_name}` : ''}
              {stop.arrival ? ` — ${formatClock(stop.arrival, language)}` : ''}
            </h2>
            <table>
              <thead>
                <tr>
                  <th>{t('plannedRoutes.selection')}</th>
                  <th>{t('plannedRoutes.product')}</th>
                  <th className="num">{t('plannedRoutes.toBring')}</th>
                  <th className="blank">{t('plannedRoutes.found')}</th>
                  <th className="blank">{t('plannedRoutes.filled')}</th>
                  <th className="blank">{t('plannedRoutes.removed')}</th>
                </tr>
              </thead>
              <tbody>
                {linesOf(stop.machine_id).map((line) => (
                  <tr key={line.selection}>
                    <td>{line.selection}</td>
                    <td>
                      {line.product_name}
                      {line.components.length ? <div>{componentsText(line.components, language)}</div> : null}
                    </td>
                    <td className="num">{formatCount(line.to_bring, language)}</td>
                    <td className="blank" />
                    <td className="blank" />
                    <td className="blank" />
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
        <section>
          <h2>{t('plannedRoutes.print.totals')}</h2>
          <table>
            <thead>
              <tr>
                <th>{t('plannedRoutes.product')}</th>
                <th className="num">{t('plannedRoutes.toBring')}</th>
              </tr>
            </thead>
            <tbody>
              {[...totals.entries()].map(([id, total]) => (
                <tr key={id}>
                  <td>{total.name}</td>
                  <td className="num">{formatCount(total.quantity, language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </>,
    document.body,
  );
}
