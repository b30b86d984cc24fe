import { MyAgentsScreen } from '../../screens/MyAgentsScreen/MyAgentsScreen';

/** /agents (private): My Agents; back goes to '/'. */
export default function Page() {
  return <MyAgentsScreen backTo="/" />;
}
