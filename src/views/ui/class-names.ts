/** Joins CSS class names, skipping the empty ones. */
export const classNames = (...names: Array<string | false | undefined>): string =>
  names.filter(Boolean).join(' ');
