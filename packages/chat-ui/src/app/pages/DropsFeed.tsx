import { DropsFeedScreen, type DropsFeedScreenProps } from '../../screens/DropsFeedScreen/DropsFeedScreen';

/** /drops, /drops/trending, /drops/discover, /drops/bookmarks: one screen, the tab given by the route (routeTable.tsx). */
export default function Page({ tab }: Pick<DropsFeedScreenProps, 'tab'>) {
  return <DropsFeedScreen tab={tab} />;
}
