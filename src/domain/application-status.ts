/** AM §4: the status values seen; others render as plain text. */
export const applicationStatuses = [
  'Adviser submit',
  'Primary edit',
  'Primary submit',
  'Secondary review',
  'Adviser edit',
  'Documents pending',
  'Complete',
  'Locked',
  'Depersonalised',
  'Cancelled',
] as const;

export type StatusStyle = 'pending' | 'success' | 'locked' | 'plain';

/** How a status is styled in the list and detail: unknown values stay plain text. */
export function statusStyle(status: string): StatusStyle {
  if (status === 'Documents pending') return 'pending';
  if (status === 'Complete') return 'success';
  if (status === 'Locked') return 'locked';
  return 'plain';
}
