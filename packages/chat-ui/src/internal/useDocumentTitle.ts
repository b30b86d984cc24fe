import { useEffect } from 'react';

/** Keeps document.title at `title` while the screen is shown (null: leave it as it is). */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title !== null) document.title = title;
  }, [title]);
}
