import { escapeHtml } from '../../html.ts';

/**
 * E-mail bodies the server writes. A person's personalised message is plain text: it is cleaned
 * (no control or direction-override characters, at most two blank lines in a row) and escaped into
 * the HTML part, so markup in it arrives as the characters typed, never as markup.
 */

// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** Bidirectional overrides and isolates: they can make text read differently from what it is. */
const directionOverrides = /[\u202a-\u202e\u2066-\u2069]/g;

/** The personalised message as it goes out: '' when only whitespace was given. */
export function cleanPersonalisedMessage(message: string | undefined): string {
  return (message ?? '')
    .replace(/\r\n?/g, '\n')
    .replace(controlCharacters, '')
    .replace(directionOverrides, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface EmailContent {
  greeting: string;
  paragraphs: readonly string[];
  /** A link on its own line (the resume link), shown as a button in the HTML part. */
  link?: { url: string; label: string };
  /** The sender's personalised message, already cleaned; omitted when empty. */
  personalisedMessage?: { from: string; text: string };
  /** Paragraphs after the link and the message. */
  closing: readonly string[];
  signature: readonly string[];
}

/** The text and HTML parts of one e-mail, from the same content. */
export function composeEmail(content: EmailContent): { text: string; html: string } {
  const personal = content.personalisedMessage?.text ? content.personalisedMessage : undefined;
  const text = [
    content.greeting,
    ...content.paragraphs,
    ...(content.link ? [content.link.url] : []),
    ...(personal ? [`Message from ${personal.from}:\n${personal.text}`] : []),
    ...content.closing,
    content.signature.join('\n'),
  ].join('\n\n');

  const paragraph = (value: string) => `<p>${escapeHtml(value).replace(/\n/g, '<br>')}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family: system-ui, sans-serif; color: #1d2430;">',
    paragraph(content.greeting),
    ...content.paragraphs.map(paragraph),
    ...(content.link
      ? [`<p><a href="${escapeHtml(content.link.url)}">${escapeHtml(content.link.label)}</a></p>`, paragraph(content.link.url)]
      : []),
    ...(personal
      ? [
          `<p>Message from ${escapeHtml(personal.from)}:</p>`,
          `<blockquote style="white-space: pre-wrap;">${escapeHtml(personal.text)}</blockquote>`,
        ]
      : []),
    ...content.closing.map(paragraph),
    paragraph(content.signature.join('\n')),
    '</body></html>',
  ].join('\n');
  return { text, html };
}
