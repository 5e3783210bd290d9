import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import RouteIcon from '@mui/icons-material/AltRouteOutlined';
import { isApiError } from '../../../api/client';
import { useAuth } from '../../../auth/context';
import { usePermission } from '../../../auth/use-permission';
import { OptionChipsInput } from '../../../components/option-chips-input';
import type { Plan } from '../../../api/types';
import { useGeneratePicklist, useRefillers, type Refiller } from '../api/planning';
import { EMPTY_OPTIONS, generateBody, optionProblems, type GenerateOptions } from '../planning-logic';

/** The server's reason for a refused request (a field's messages, else its message), or `fallback`. */
/**
 * A refusal laid out to be read: the server's message, then each field's errors as a list (they
 * name the machines nobody chosen reaches, the refillers reaching none…).
 */
export function RefusalAlert({ error, fallback, testId }: { error: unknown; fallback: string; testId: string }) {
  const reasons = isApiError(error) && error.status >= 400 && error.status < 500 ? Object.values(error.errors ?? {}).flat().filter(Boolean) : [];
  const title = isApiError(error) && error.status >= 400 && error.status < 500 && error.message ? error.message : fallback;
  return (
    <Alert severity="error" data-testid={testId} sx={{ flexBasis: '100%' }}>
      {reasons.length > 0 ? <AlertTitle>{title}</AlertTitle> : title}
      {reasons.length > 0 ? (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {reasons.map((reason) => (
            <li key={reason} data-testid={`${testId}-reason`}>
              {reason}
            </li>
          ))}
        </Box>
      ) : null}
    </Alert>
  );
}

export function refusal(error: unknown, fallback: string): string {
  if (!isApiError(error) || error.status < 400 || error.status >= 500) return fallback;
  const reasons = Object.values(error.errors ?? {}).flat();
  return [error.message, ...reasons].filter(Boolean).join(' ') || fallback;
}

interface GeneratePanelProps {
  visitDate: string;
  machineIds: string[];
  onPlan: (plan: Plan) => void;
}

/**
 * Who drives and how: the refillers (others than oneself with `change_employee`), and for this plan
 * only the van's capacity, the shift and the service time (empty: the operator's settings). Then
 * "Generate picklist".
 */
export function GeneratePanel({ visitDate, machineIds, onPlan }: GeneratePanelProps) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const can = usePermission();
  const others = can('planning.route_planning.change_employee');
  const refillers = useRefillers(can('settings.users.list'), others);
  const me: Refiller | null = user ? { id: user.id, name: user.name } : null;
  const [chosen, setChosen] = useState<Refiller[]>([]);
  const [options, setOptions] = useState<GenerateOptions>(EMPTY_OPTIONS);
  const generate = useGeneratePicklist();
  const problems = optionProblems(options);
  const employees = others ? chosen : me ? [me] : [];
  const ready = machineIds.length > 0 && employees.length > 0 && Object.keys(problems).length === 0;

  const submit = async () => {
    try {
      onPlan(await generate.mutateAsync(generateBody(visitDate, machineIds, employees.map((employee) => employee.id), options)));
    } catch {
      // Shown below from the mutation's error.
    }
  };

  const option = (field: keyof GenerateOptions, label: string, type: 'number' | 'time', testId: string) => {
    const problem = problems[field];
    return (
      <TextField
        size="small"
        type={type}
        label={label}
        value={options[field]}
        onChange={(event) => setOptions((current) => ({ ...current, [field]: event.target.value }))}
        error={Boolean(problem)}
        helperText={problem ? t(`routePlanning.problems.${problem}`) : t('routePlanning.fromSettings')}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': testId, ...(type === 'number' ? { min: field === 'van_capacity' ? 1 : 0, step: 1 } : {}) } }}
      />
    );
  };

  return (
    <Card data-testid="generate-panel">
      <CardHeader title={t('routePlanning.generateTitle')} subheader={t('routePlanning.chosenMachines', { count: machineIds.length })} />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
        {others ? (
          <OptionChipsInput
            options={refillers.data ?? []}
            value={chosen}
            loading={refillers.isLoading}
            onChange={setChosen}
            noOptionsText={t('routePlanning.noRefillers')}
            label={t('routePlanning.refillers')}
            helperText={refillers.isError ? t('routePlanning.refillersFailed') : t('routePlanning.refillersHint')}
            error={refillers.isError}
            testId="planning-refillers"
          />
        ) : (
          <Box>
            <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
              {t('routePlanning.refillers')}
            </Typography>
            <Chip size="small" label={me?.name ?? ''} data-testid="planning-refiller-self" />
          </Box>
        )}
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))' } }}>
          {option('van_capacity', t('routePlanning.vanCapacity'), 'number', 'planning-van-capacity')}
          {option('shift_start', t('routePlanning.shiftStart'), 'time', 'planning-shift-start')}
          {option('shift_end', t('routePlanning.shiftEnd'), 'time', 'planning-shift-end')}
          {option('service_minutes', t('routePlanning.serviceMinutes'), 'number', 'planning-service-minutes')}
        </Box>
        {generate.isError ? (
          <RefusalAlert error={generate.error} fallback={t('routePlanning.generateFailed')} testId="generate-error" />
        ) : null}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button
            variant="contained"
            startIcon={<RouteIcon />}
            disabled={!ready}
            loading={generate.isPending}
            onClick={() => void submit()}
            data-testid="planning-generate"
          >
            {t('routePlanning.generate')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
