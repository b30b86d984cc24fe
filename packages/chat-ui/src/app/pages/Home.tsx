import { LandingPage } from '../../screens/LandingPage/LandingPage';

/** '/' without a session: the landing page (with one, '/' is the shell: SignedInFrame). */
export default function Page() {
  return <LandingPage />;
}
