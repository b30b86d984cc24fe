import { useParams } from '../router';
import { DropScreen } from '../../screens/DropScreen/DropScreen';

/** /drops/:slug: one drop; also where a new drop opens. */
export default function Page() {
  const { slug = '' } = useParams();
  return <DropScreen slug={slug} />;
}
