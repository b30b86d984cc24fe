import { CompleteAccountPage } from '../../screens/CompleteAccountPage/CompleteAccountPage';

/** /complete-account: shows content only to soft-registered users. */
export default function Page() {
  return <CompleteAccountPage />;
}
