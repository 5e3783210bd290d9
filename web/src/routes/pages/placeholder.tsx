import { useTranslation } from 'react-i18next';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import ConstructionIcon from '@mui/icons-material/ConstructionOutlined';
import { ScreenHeader } from '../../components/screen-header';

/** A protected screen whose content arrives with its own issue: layout, title and breadcrumbs only. */
export default function PlaceholderPage() {
  const { t } = useTranslation();
  return (
    <>
      <ScreenHeader />
      <Card data-testid="placeholder">
        <CardContent sx={{ py: 8, textAlign: 'center', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5 }}>
          <ConstructionIcon sx={{ fontSize: 48, color: 'primary.main' }} />
          <Typography variant="h6">{t('common.comingSoonTitle')}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', maxWidth: 420 }}>
            {t('common.comingSoonText')}
          </Typography>
        </CardContent>
      </Card>
    </>
  );
}
