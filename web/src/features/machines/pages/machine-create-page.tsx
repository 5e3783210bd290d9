import { ScreenHeader } from '../../../components/screen-header';
import { MachineForm } from '../components/machine-form';
import { emptyMachineValues } from '../components/machine-form-values';

/** /settings/create-machine. */
export default function MachineCreatePage() {
  return (
    <>
      <ScreenHeader />
      <MachineForm initial={emptyMachineValues()} />
    </>
  );
}
