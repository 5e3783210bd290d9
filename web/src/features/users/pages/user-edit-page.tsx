import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LoadingScreen } from '../../../components/loading-screen';
import { ScreenHeader } from '../../../components/screen-header';
import { isSupportedLanguage } from '../../../locales/i18n';
import { useUser } from '../api/users';
import { UserForm } from '../components/user-form';
import { emptyUserValues, valuesFromUser } from '../components/user-form-values';

/** /settings/create-user and /settings/create-user/{userId}. */
export default function UserEditPage() {
  const { userId } = useParams();
  const { i18n } = useTranslation();
  const user = useUser(userId);

  if (userId && !user.data) {
    return (
      <>
        <ScreenHeader />
        {user.isError ? null : <LoadingScreen inline />}
      </>
    );
  }

  return (
    <>
      <ScreenHeader />
      {user.data ? (
        <UserForm key={`${user.data.id}:${user.data.version}`} user={user.data} initial={valuesFromUser(user.data)} />
      ) : (
        <UserForm initial={emptyUserValues(isSupportedLanguage(i18n.language) ? i18n.language : 'en')} />
      )}
    </>
  );
}
