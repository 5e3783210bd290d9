import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardHeader from '@mui/material/CardHeader';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { DashboardTop } from '../../../api/types';
import type { I18nKey } from '../../../locales/keys';
import { formatCount } from '../../../components/format';
import { formatEuros } from '../../../components/reports/sales-figures';

interface TopListProps {
  title: I18nKey;
  /** Undefined while the dashboard loads. */
  rows?: DashboardTop[];
  /** The sales overview of the month, grouped as the list. */
  href: string;
  testId: string;
}

/** This month's best sellers, ranked: name, sales and quantity; each row opens the grouped report. */
export function TopList({ title, rows, href, testId }: TopListProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <Card sx={{ height: 1 }} data-testid={testId}>
      <CardHeader
        title={t(title)}
        slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        action={
          <Button component={RouterLink} to={href} size="small" data-testid={`${testId}-link`}>
            {t('dashboard.seeReport')}
          </Button>
        }
      />
      {!rows ? (
        <Box sx={{ px: 2, pb: 2 }}>
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} variant="text" height={40} />
          ))}
        </Box>
      ) : rows.length === 0 ? (
        <Typography sx={{ px: 2, pb: 3, color: 'text.secondary' }} data-testid={`${testId}-empty`}>
          {t('dashboard.noSalesMonth')}
        </Typography>
      ) : (
        <List dense disablePadding sx={{ pb: 1 }}>
          {rows.map((row, index) => (
            <ListItem key={row.id || `none-${index}`} disablePadding data-testid={`${testId}-row`}>
              <ListItemButton component={RouterLink} to={href} sx={{ gap: 1.5 }}>
                <Avatar sx={{ width: 28, height: 28, typography: 'caption', fontWeight: 700, bgcolor: index === 0 ? 'primary.main' : 'action.selected', color: index === 0 ? 'primary.contrastText' : 'text.primary' }}>
                  {index + 1}
                </Avatar>
                <ListItemText
                  primary={row.id ? row.name : t('dashboard.noProduct')}
                  secondary={t('dashboard.units', { count: row.quantity, value: formatCount(row.quantity, language) })}
                  slotProps={{ primary: { noWrap: true } }}
                  sx={{ minWidth: 0 }}
                />
                <Typography variant="subtitle2" sx={{ whiteSpace: 'nowrap' }} data-testid={`${testId}-sales`}>
                  {formatEuros(row.sales_minor, language)}
                </Typography>
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Card>
  );
}
