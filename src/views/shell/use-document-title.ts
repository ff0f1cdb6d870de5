import { useEffect } from 'react';

/** Keeps `document.title` in step with the page. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
