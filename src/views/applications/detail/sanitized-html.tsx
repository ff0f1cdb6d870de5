import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/** HTML from the server (ActionRequired) shown only after DOMPurify has removed scripts and handlers (ARCHITECTURE §3). */
export function SanitizedHtml({ html, className }: { html: string; className?: string }) {
  const clean = useMemo(() => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } }), [html]);
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
