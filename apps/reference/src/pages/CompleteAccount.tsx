import { CompleteAccountPage } from '@confab/chat-ui';

/** /complete-account: shows content only to soft-registered users. */
export default function Page() {
  return <CompleteAccountPage />;
}
