import { useParams } from 'react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { ScreenHeader } from '../../../components/screen-header';
import { useLocation } from '../api/locations';
import { LocationForm } from '../components/location-form';
import { emptyLocationValues, valuesFromLocation } from '../components/location-form-values';

/** /settings/create-location and /settings/create-location/{locationId}. */
export default function LocationEditPage() {
  const { locationId } = useParams();
  const location = useLocation(locationId);

  return (
    <>
      <ScreenHeader />
      {locationId && !location.data ? (
        location.isError ? null : <LoadingScreen inline />
      ) : location.data ? (
        <LocationForm key={`${location.data.id}:${location.data.version}`} location={location.data} initial={valuesFromLocation(location.data)} />
      ) : (
        <LocationForm initial={emptyLocationValues()} />
      )}
    </>
  );
}
