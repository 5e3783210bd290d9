import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import AddIcon from '@mui/icons-material/Add';
import type { Client } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { ScreenHeader } from '../../../components/screen-header';
import { ClientDialog } from '../components/client-dialog';
import { ClientsTable } from '../components/clients-table';

/** /settings/client-management: the clients list, created and edited in a dialog. */
export default function ClientManagementPage() {
  const { t } = useTranslation();
  const can = usePermission();
  const [editing, setEditing] = useState<Client | 'new' | null>(null);

  const action = can('settings.clients.new') ? (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')} data-testid="new-client">
      {t('clients.newClient')}
    </Button>
  ) : null;

  return (
    <>
      <ScreenHeader action={action} />
      <ClientsTable onEdit={setEditing} />
      {editing ? (
        <ClientDialog
          key={editing === 'new' ? 'new' : `${editing.id}:${editing.version}`}
          client={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}
