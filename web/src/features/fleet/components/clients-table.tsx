import { useTranslation } from 'react-i18next';
import type { GridColDef } from '@mui/x-data-grid';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/EditOutlined';
import type { Client } from '../../../api/types';
import { usePermission } from '../../../auth/use-permission';
import { formatDate } from '../../../components/format';
import { formatPercent } from '../../../components/percent';
import { NO_FIGURE } from '../../../components/reports/report-columns';
import { ServerList } from '../../../components/server-list/server-list';
import { useListState } from '../../../components/server-list/use-list-state';
import { useClients, useDeleteClient } from '../api/clients';

/** An e-mail address or phone number that opens the mail or phone app; "—" when the client has none. */
function ContactLink({ href, text }: { href: string; text: string }) {
  if (!text) return <span>{NO_FIGURE}</span>;
  return (
    <Link href={href} underline="hover" noWrap sx={{ display: 'block', typography: 'body2' }}>
      {text}
    </Link>
  );
}

/** Grid column → the server's ordering name. */
const SORTABLE = { name: 'name', createdAt: 'created_at', commission_bps: 'commission_bps' };

export function ClientsTable({ onEdit }: { onEdit: (client: Client) => void }) {
  const { t, i18n } = useTranslation();
  const can = usePermission();
  const list = useListState();
  const clients = useClients(list.params);
  const deleteClient = useDeleteClient();

  const columns: GridColDef<Client>[] = [
    {
      field: 'name',
      headerName: t('clients.name'),
      flex: 1,
      minWidth: 180,
      renderCell: ({ row }) => (
        <Box sx={{ py: 1, lineHeight: 1.4, minWidth: 0 }}>
          <Typography variant="subtitle2" noWrap>
            {row.name}
          </Typography>
          {row.contact_name ? (
            <Typography variant="body2" noWrap sx={{ color: 'text.secondary' }}>
              {row.contact_name}
            </Typography>
          ) : null}
        </Box>
      ),
    },
    { field: 'email', headerName: t('clients.email'), flex: 1, minWidth: 160, renderCell: ({ row }) => <ContactLink href={`mailto:${row.email}`} text={row.email} /> },
    { field: 'phone', headerName: t('clients.phone'), minWidth: 120, renderCell: ({ row }) => <ContactLink href={`tel:${row.phone.replace(/[^\d+]/g, '')}`} text={row.phone} /> },
    {
      field: 'commission_bps',
      headerName: t('clients.commission'),
      minWidth: 120,
      align: 'right',
      headerAlign: 'right',
      valueFormatter: (value: number) => formatPercent(value ?? 0, i18n.language),
    },
    {
      field: 'createdAt',
      headerName: t('clients.createdAt'),
      minWidth: 110,
      valueFormatter: (value: string) => formatDate(value, i18n.language),
    },
  ];

  return (
    <ServerList
      name="clients"
      list={list}
      query={clients}
      columns={columns}
      sortable={SORTABLE}
      noRowsLabel={t('clients.noRows')}
      rowLabel={(row) => row.name}
      autoRowHeight
      actions={can('settings.clients.edit') ? [{ label: t('common.edit'), icon: <EditIcon fontSize="small" />, onClick: onEdit }] : []}
      deletion={
        can('settings.clients.delete')
          ? {
              title: t('clients.deleteTitle'),
              confirmText: ([row]) => t('clients.deleteConfirm', { name: row?.name ?? '' }),
              // A client still hosting locations answers 409 naming them.
              remove: ([row]) => deleteClient.mutateAsync(row.id),
              pending: deleteClient.isPending,
              successText: () => t('success.clientDeleted'),
            }
          : undefined
      }
    />
  );
}
