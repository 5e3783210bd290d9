import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useAuth } from '../../../auth/context';
import { formatDate } from '../../../components/format';
import { Page } from '../../../components/page';
import { paths } from '../../../routes/paths';
import { Busy, OfflineCopy, Section } from '../components/parts';
import { localDay, useMyRoutes } from '../my-day-data';

/** `/my-day`: my routes of today and the next six days, today first. */
export default function MyRoutesPage() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const today = new Date();
  const routes = useMyRoutes(user?.id ?? '', today);
  const todayKey = localDay(today);
  return (
    <Page title={t('myDay.title')}>
      <Section title={t('myDay.routes')} testId="my-routes">
        {routes.isPending ? <Busy /> : null}
        {routes.isError ? <Alert severity="error">{t('myDay.routesFailed')}</Alert> : null}
        {routes.data ? <OfflineCopy offline={routes.data.offline} savedAt={routes.data.savedAt} /> : null}
        {routes.data?.value.length === 0 ? <Typography sx={{ fontSize: '1.1rem' }}>{t('myDay.noRoutes')}</Typography> : null}
        <Stack spacing={1.5}>
          {routes.data?.value.map((route) => (
            <Card key={route.id} variant="outlined" data-testid="my-route" data-route={route.id}>
              <CardActionArea component={RouterLink} to={paths.myDay.route(route.id)} sx={{ p: 2, minHeight: 72 }}>
                <Typography variant="overline" sx={{ color: 'text.secondary', fontSize: '0.85rem' }}>
                  {route.visit_date === todayKey ? t('myDay.today') : formatDate(route.visit_date, i18n.language)}
                </Typography>
                <Typography variant="h6" component="h3">
                  {route.name}
                </Typography>
                <Typography sx={{ fontSize: '1rem' }}>
                  {t('myDay.stops', { visited: route.visited, count: route.stops })} · {t(`plannedRoutes.statuses.${route.status as 'planned'}`, { defaultValue: route.status })}
                </Typography>
              </CardActionArea>
            </Card>
          ))}
        </Stack>
      </Section>
    </Page>
  );
}
