import { DataGrid } from '@mui/x-data-grid';
import { LineChart } from '@mui/x-charts/LineChart';
import { get } from '@aws-amplify/api-rest';
export function Grid() {
  void get;
  return <div><LineChart series={[{ data: [1, 2, 3] }]} height={300} /><DataGrid rows={[{ id: 1, a: 'x' }]} columns={[{ field: 'a' }]} paginationMode="server" rowCount={1} /></div>;
}
