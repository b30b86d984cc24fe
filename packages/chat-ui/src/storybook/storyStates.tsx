import type { Decorator } from '@storybook/react-vite';

/**
 * The states every component shows (docs/PRODUCT.md §2; docs/STYLE.md, Accessible by construction),
 * as story fragments: `...narrow` (a 390 px phone), `withRtl` (right-to-left text), `withWidth(px)`
 * (a narrow column).
 */

/**
 * A phone-sized viewport (390×844) in Storybook's toolbar. Spread into a story together with the
 * tag, written out because Storybook reads tags from the source without running it:
 * `{ ...narrow, tags: ['narrow'], decorators: [...] }`. The tag makes the Storybook checks
 * (.storybook/stories.test.ts) render the story at that size too.
 */
export const narrow = {
  globals: { viewport: { value: 'phone', isRotated: false } },
};

/** Right-to-left: the story inside `dir="rtl"` with an Arabic language tag. */
export const withRtl: Decorator = (Story) => (
  <div dir="rtl" lang="ar" style={{ height: '100%' }}>
    <Story />
  </div>
);

/** The story in a column `width` pixels wide (a sidebar, a split view), whatever the viewport. */
export function withWidth(width: number): Decorator {
  return (Story) => (
    <div style={{ width, maxWidth: '100%' }}>
      <Story />
    </div>
  );
}

/** Names long enough to wrap or truncate, for the long-names states. */
export const longNames = {
  chat: 'Quarterly planning for the international expansion of the customer success organisation (EMEA and APAC)',
  person: 'Maximiliana Alexandra Konstantinopoulou-Wolfeschlegelsteinhausen',
  word: 'Supercalifragilisticexpialidocious-and-then-some-without-any-spaces-at-all-to-break-on',
};

/** Right-to-left sample texts (Arabic and Hebrew). */
export const rtlText = {
  chat: 'إطلاق المنتج',
  description: 'التخطيط لإصدار النسخة الثانية',
  message: 'مرحبا بالجميع! هل نحن جاهزون لإطلاق النسخة الثانية يوم الاثنين؟',
  hebrew: 'שלום לכולם, הפגישה מחר בעשר',
  person: 'ليلى أحمد',
};
