import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { limitsOf } from '../../../api/limits';
import type { Machine } from '../../../api/types';
import { OptionInput, useServerForm } from '../../../components/form';
import { BulkDialog, type BulkAction } from '../../../components/form/form-dialog';
import { text } from '../../../components/form/rules';
import { useMachineOptions } from '../../../api/filter-options';
import { useCopyProducts } from '../api/machines';

const limits = limitsOf('CopyProductsRequest');
const schema = z.object({ from_machine_id: text(limits('from_machine_id')) });
type CopyValues = z.infer<typeof schema>;

interface Props {
  /** The machines that receive the planogram. */
  targets: Machine[];
  onClose: (changed: boolean) => void;
}

/** What the dialog says, and its look. */
const ACTION = {
  title: 'machines.copyProducts',
  intro: 'machines.copyProductsText',
  submit: 'machines.copyProducts',
  success: 'success.productsCopied',
  failure: 'errors.copyProducts',
  maxWidth: 'sm',
  testId: 'copy-products',
} satisfies BulkAction;

/** Copies one machine's product selections onto the chosen machines, all or nothing. */
export function CopyProductsDialog({ targets, onClose }: Props) {
  const { t } = useTranslation();
  const machines = useMachineOptions();
  const copy = useCopyProducts();
  const form = useServerForm({ schema, defaultValues: { from_machine_id: '' } });
  const source = useWatch<CopyValues, 'from_machine_id'>({ control: form.control, name: 'from_machine_id' });
  const receivers = targets.filter((machine) => machine.id !== source);

  return (
    <BulkDialog
      action={ACTION}
      count={receivers.length}
      form={form}
      save={({ from_machine_id }) => copy.mutateAsync({ from_machine_id, to_machine_ids: receivers.map((machine) => machine.id) })}
      onClose={onClose}
      submitDisabled={!source || receivers.length === 0}
    >
      <OptionInput
        name="from_machine_id"
        label={t('machines.sourceMachine')}
        options={machines.data ?? []}
        loading={machines.isLoading}
        noneLabel={t('machines.chooseMachine')}
        testId="copy-products-source"
      />
    </BulkDialog>
  );
}
