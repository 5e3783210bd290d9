import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import type { PlanRoute } from '../../../api/types';
import { NEED_LEVELS, routeColor } from '../planning-logic';
import { chosenRing, depotSvg, needMark, offlineColor } from './map-marks';

/** What the marks of the map mean, as the map draws them. */
export function MapLegend({ routes, unplaced }: { routes: PlanRoute[]; unplaced: number }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const dot = (fill: string, stroke = fill, ring = 2) => (
    <Box component="span" sx={{ width: 14, height: 14, boxSizing: 'border-box', borderRadius: '50%', bgcolor: fill, border: `${ring}px solid ${stroke}`, display: 'inline-block' }} />
  );
  const item = (key: string, mark: ReactNode, label: string) => (
    <Box key={key} component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }} data-legend={key}>
      {mark}
      <Typography variant="caption">{label}</Typography>
    </Box>
  );
  const later = needMark(theme, 'later');
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 1.5 }} data-testid="map-legend">
      {NEED_LEVELS.map((level) => item(level, dot(needMark(theme, level).fill), t(`routePlanning.needs.${level}`)))}
      {item('offline', dot(theme.palette.common.white, offlineColor(theme)), t('routePlanning.offline'))}
      {item('chosen', dot(later.fill, chosenRing(theme), 3), t('routePlanning.legendChosen'))}
      {item(
        'cluster',
        <Box
          component="span"
          aria-hidden
          sx={{ width: 20, height: 20, borderRadius: '50%', bgcolor: needMark(theme, 'now').fill, color: needMark(theme, 'now').text, fontSize: 11, fontWeight: 700, display: 'inline-flex', alignItems: 'center', justifyContent: 'center' }}
        >
          3
        </Box>,
        t('routePlanning.legendCluster'),
      )}
      {item('depot', <Box component="span" sx={{ display: 'inline-flex' }} dangerouslySetInnerHTML={{ __html: depotSvg(theme, 18) }} />, t('routePlanning.depot'))}
      {routes.map((route, index) =>
        item(`route-${route.employee_id}`, <Box component="span" sx={{ width: 18, height: 4, bgcolor: routeColor(index, theme.palette.mode), display: 'inline-block', borderRadius: 1 }} />, route.employee_name),
      )}
      {unplaced > 0 ? <Typography variant="caption" sx={{ color: 'text.secondary' }}>{t('routePlanning.unplaced', { count: unplaced })}</Typography> : null}
    </Box>
  );
}
