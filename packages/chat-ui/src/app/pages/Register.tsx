import { useSearchParams } from '../router';
import { RegisterScreen } from '../../screens/RegisterScreen/RegisterScreen';

/** /register?source=…&user_type=… (the landing call to action sends main-landing / mixed). */
export default function Page() {
  const searchParams = useSearchParams();
  return <RegisterScreen source={searchParams.get('source') ?? undefined} userType={searchParams.get('user_type') ?? undefined} />;
}
