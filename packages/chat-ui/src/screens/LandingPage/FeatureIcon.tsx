import type { Feature } from './landingContent';

const paths: Record<Feature['icon'], string> = {
  bolt: 'M13 2 L4 14 h7 l-1 8 9-12 h-7 z',
  lock: 'M7 10 V7 a5 5 0 0 1 10 0 v3 h1 a1 1 0 0 1 1 1 v9 a1 1 0 0 1-1 1 H6 a1 1 0 0 1-1-1 v-9 a1 1 0 0 1 1-1 z M9 10 h6 V7 a3 3 0 0 0-6 0 z',
  link: 'M10 14 a4 4 0 0 0 5.66 0 l3-3 a4 4 0 0 0-5.66-5.66 l-1 1 M14 10 a4 4 0 0 0-5.66 0 l-3 3 a4 4 0 0 0 5.66 5.66 l1-1',
  gift: 'M4 10 h16 v4 H4 z M5 14 h14 v7 H5 z M12 10 v11 M12 10 C9 10 7 8 8.5 6.5 S12 8 12 10 c0-2 2-5 3.5-3.5 S15 10 12 10',
};

/** Decorative icon for a feature card; the card title carries the meaning. */
export function FeatureIcon({ icon }: { icon: Feature['icon'] }) {
  const filled = icon === 'bolt';
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path
        d={paths[icon]}
        fill={filled ? 'currentColor' : 'none'}
        stroke="currentColor"
        strokeWidth={filled ? 0 : 2}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
