import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { OptionInput, useServerForm } from '../../../components/form';
import { BulkDialog, type BulkAction } from '../../../components/form/form-dialog';
import { useEmployeeOptions } from '../../../api/filter-options';
import { useChangeRefiller } from '../api/locations';

/** The new refiller; '' = none. */
const schema = z.object({ refiller_id: z.string() });

interface Props {
  locationIds: string[];
  /** The refiller they share, if any: the starting choice. */
  current?: string;
  onClose: (changed: boolean) => void;
}

/** What the dialog says, and its look. */
const ACTION = {
  title: 'locations.changeRefiller',
  intro: 'locations.changeRefillerText',
  submit: 'common.save',
  success: 'success.refillerChanged',
  failure: 'errors.refillerChange',
  maxWidth: 'xs',
  testId: 'change-refiller',
} satisfies BulkAction;

/** Gives the chosen locations a new refiller (or none), all or nothing. */
export function ChangeRefillerDialog({ locationIds, current, onClose }: Props) {
  const { t } = useTranslation();
  const employees = useEmployeeOptions();
  const change = useChangeRefiller();
  const form = useServerForm({ schema, defaultValues: { refiller_id: current ?? '' } });

  return (
    <BulkDialog
      action={ACTION}
      count={locationIds.length}
      form={form}
      save={({ refiller_id }) => change.mutateAsync({ locationIds, refillerId: refiller_id || null })}
      onClose={onClose}
    >
      <OptionInput
        name="refiller_id"
        label={t('locations.refiller')}
        options={employees.data ?? []}
        loading={employees.isLoading}
        noneLabel={t('locations.noRefiller')}
        testId="change-refiller-picker"
      />
    </BulkDialog>
  );
}
