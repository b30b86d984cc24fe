import type { Decorator } from '@storybook/react-vite';

/**
 * The sidebar's dark rail, which sidebar parts are drawn for. List it before `withConfab(...)` in
 * `decorators` so the rail sits inside the provider's root (where the theme's properties live).
 */
export const onSidebarRail: Decorator = (Story) => (
  <aside className="cf-sidebar" style={{ height: '100vh' }}>
    <Story />
  </aside>
);
