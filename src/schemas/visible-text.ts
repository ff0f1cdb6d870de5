import * as z from 'zod/mini';

/*
 * The one rule for text a person typed that is shown back to others (ARCHITECTURE §3): names,
 * labels, comments and uploaded file names. Bidirectional controls are removed (they make
 * `report\u202Excod.pdf` read as `reportfdp.docx`), and a value must hold at least one character
 * that is seen (a label of zero-width spaces looks empty but is not). Every route that stores such
 * text reads it through these schemas, so a new route gets the rule by using them.
 */

/**
 * Embeddings, overrides and isolates (U+202A–202E, U+2066–2069), the implicit marks (LRM, RLM,
 * ALM): none is needed to write any language correctly in a single field, all can disguise text.
 */
const bidiControls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Letters, digits, punctuation and symbols are seen, but for those drawn as nothing: the Hangul
 * fillers (letters), the Braille blank and the musical null notehead (symbols).
 */
const visibleCharacter = /(?![\u115f\u1160\u3164\uffa0\u2800\u{1d159}])[\p{L}\p{N}\p{P}\p{S}]/u;

/** The text without bidirectional control characters. */
export const stripBidiControls = (text: string): string => text.replace(bidiControls, '');

/** True when the text holds at least one character a reader can see (not only spaces, marks or zero-width characters). */
export const hasVisibleCharacter = (text: string): boolean => visibleCharacter.test(text);

export const invisibleTextMessage = (field: string) => `${field}: must contain visible characters`;

interface VisibleTextOptions {
  /** At most this many characters (after cleaning). */
  max?: number;
  /** '' is accepted (it clears the value); anything else must hold a visible character. */
  allowEmpty?: boolean;
}

/**
 * A string field of user text: bidi controls stripped, trimmed, then refused with a 400 naming the
 * field when it is empty ('<field>: required', unless `allowEmpty`), holds nothing visible, or is
 * longer than `max`.
 */
export function visibleText(field: string, { max, allowEmpty = false }: VisibleTextOptions = {}) {
  return z.string().check(
    z.overwrite(stripBidiControls),
    z.trim(),
    ...(allowEmpty ? [] : [z.minLength(1, { message: `${field}: required`, abort: true })]),
    z.refine((text: string) => text === '' || hasVisibleCharacter(text), { message: invisibleTextMessage(field), abort: true }),
    ...(max === undefined ? [] : [z.maxLength(max, `${field}: at most ${max} characters`)]),
  );
}

/** User text whose emptiness the route judges itself (e.g. a comment's spec message): only the bidi controls are stripped. */
export const plainText = () => z.string().check(z.overwrite(stripBidiControls));
