import { ProfileScreen } from '../../screens/ProfileScreen/ProfileScreen';

/** /profile (private); back goes to '/'. */
export default function Page() {
  return <ProfileScreen backTo="/" />;
}
