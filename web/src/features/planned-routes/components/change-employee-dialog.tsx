import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { isApiError } from '../../../api/client';
import { OptionPicker } from '../../../components/fields';
import { toast } from '../../../components/snackbar';
import { useChangeRouteEmployee, useEmployeeOptions } from '../api/routes';
import type { PlannedRoute } from '../../../api/types';
import { refusalText } from './refusal';

/** Hands the route to another active employee; the server refuses one who cannot reach every machine (400). */
export function ChangeEmployeeDialog({ route, onClose }: { route: PlannedRoute; onClose: () => void }) {
  const { t } = useTranslation();
  const employees = useEmployeeOptions();
  const change = useChangeRouteEmployee(route.id);
  const [employeeId, setEmployeeId] = useState(route.employee_id);
  const fieldError = isApiError(change.error) ? change.error.errors?.employee_id?.[0] : undefined;

  const submit = async () => {
    try {
      await change.mutateAsync(employeeId);
      toast.success(t('plannedRoutes.employeeChanged'));
      onClose();
    } catch {
      // Shown in the dialog.
    }
  };

  return (
    <Dialog open onClose={change.isPending ? undefined : onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('plannedRoutes.changeEmployee')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="change-employee-dialog">
        <DialogContentText>{t('plannedRoutes.changeEmployeeText', { name: route.name })}</DialogContentText>
        {change.isError && !fieldError ? <Alert severity="error">{refusalText(change.error, t('plannedRoutes.employeeChangeFailed'))}</Alert> : null}
        <OptionPicker
          name="employee_id"
          label={t('plannedRoutes.employee')}
          value={employeeId}
          options={employees.data ?? []}
          known={[{ id: route.employee_id, name: route.employee_name }]}
          onChange={setEmployeeId}
          error={fieldError}
          loading={employees.isLoading}
          testId="change-employee-picker"
        />
      </DialogContent>
      <DialogActions>
        <Button variant="outlined" color="inherit" onClick={onClose} disabled={change.isPending}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} loading={change.isPending} disabled={!employeeId || employeeId === route.employee_id} data-testid="change-employee-submit">
          {t('plannedRoutes.changeEmployee')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
