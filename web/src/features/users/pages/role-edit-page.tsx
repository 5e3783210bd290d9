import { useParams } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { ScreenHeader } from '../../../components/screen-header';
import { usePermissionCatalogue } from '../api/filters';
import { useRole } from '../api/roles';
import { RoleForm } from '../components/role-form';

/** /settings/create-role and /settings/create-role/{roleId}. */
export default function RoleEditPage() {
  const { roleId } = useParams();
  const role = useRole(roleId);
  const catalogue = usePermissionCatalogue();

  return (
    <>
      <ScreenHeader />
      {roleId && !role.data ? (
        role.isError ? null : <LoadingScreen inline />
      ) : (
        <RoleForm
          key={role.data ? `${role.data.id}:${role.data.version}` : 'new'}
          role={role.data}
          catalogue={catalogue.data}
          catalogueFailed={catalogue.isError}
        />
      )}
    </>
  );
}
