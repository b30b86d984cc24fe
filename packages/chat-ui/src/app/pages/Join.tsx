import { useParams, useSearchParams } from '../router';
import { JoinScreen } from '../../screens/JoinScreen/JoinScreen';

/** /join/:token, or /join?token=… (docs/PRODUCT.md §2: the token may also come from the query). */
export default function Page() {
  const { token } = useParams();
  const searchParams = useSearchParams();
  const value = token ?? searchParams.get('token');
  // A new token remounts the screen, so every join runs from the start.
  return <JoinScreen key={value ?? ''} token={value} />;
}
