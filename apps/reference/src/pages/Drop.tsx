import { useParams } from '../routing/engine';
import { DropScreen } from '@confab/chat-ui';

/** /drops/:slug: one drop; also where a new drop opens. */
export default function Page() {
  const { slug = '' } = useParams();
  return <DropScreen slug={slug} />;
}
