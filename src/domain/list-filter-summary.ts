import type { NameValue } from '../schemas/applications.schema.ts';
import { noneValue, type ApplicationListQuery, type ArrayFilterKey } from './application-query.ts';
import { applicationStatuses } from './application-status.ts';

/** The multi-selects of the 'Filters' modal, in its order, with their captions (AM §2). */
export const modalFilters = [
  { key: 'status', label: 'STATUS' },
  { key: 'subBrand', label: 'SUB-BRAND' },
  { key: 'assignee', label: 'ASSIGNEE' },
  { key: 'label', label: 'LABEL' },
  { key: 'sysLabel', label: 'TAG' },
] as const satisfies ReadonlyArray<{ key: ArrayFilterKey; label: string }>;

export type ModalFilterKey = (typeof modalFilters)[number]['key'];
export type FilterSelection = Record<ModalFilterKey, string[]>;

export const emptyFilterSelection: FilterSelection = { status: [], subBrand: [], assignee: [], label: [], sysLabel: [] };

/** The options each filter offers (and the names the summary shows for values). */
export interface FilterOptions {
  status: NameValue[];
  subBrand: NameValue[];
  assignee: NameValue[];
  label: NameValue[];
  sysLabel: NameValue[];
  products: NameValue[];
}

/** AM §2: the '(None)' option, with an empty value. */
export const noneOption: NameValue = { Name: '(None)', Value: noneValue };

/** AM §2: '(None)' leads the assignee, label, tag, sub-brand and product lists. */
export const withNoneOption = (options: readonly NameValue[]): NameValue[] => [
  noneOption,
  ...options.filter((option) => option.Value !== noneValue),
];

/** The STATUS choices: every status but Cancelled, which no list shows (AM §4: cancel removes it). */
export const statusOptions = (statuses: readonly string[]): NameValue[] =>
  statuses.filter((status) => status !== 'Cancelled').map((status) => ({ Name: status, Value: status }));

/** Before the lookups load (or if they cannot): the statuses the spec names, and nothing else to pick. */
export const defaultFilterOptions: FilterOptions = {
  status: statusOptions(applicationStatuses),
  subBrand: [noneOption],
  assignee: [noneOption],
  label: [noneOption],
  sysLabel: [noneOption],
  products: [noneOption],
};

/** The modal's starting selection: what the list is filtered by now. */
export const filterSelectionOf = (query: ApplicationListQuery): FilterSelection => ({
  status: [...query.status],
  subBrand: [...query.subBrand],
  assignee: [...query.assignee],
  label: [...query.label],
  sysLabel: [...query.sysLabel],
});

const sameValues = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((value) => b.includes(value));

/** Same filters whatever the order values were picked in. */
export const filterSelectionsEqual = (a: FilterSelection, b: FilterSelection): boolean =>
  modalFilters.every(({ key }) => sameValues(a[key], b[key]));

/** AM §2: Apply is enabled only when the selection differs from the current filters. */
export const canApplyFilters = (draft: FilterSelection, query: ApplicationListQuery): boolean =>
  !filterSelectionsEqual(draft, filterSelectionOf(query));

/** AM §2: Clear is disabled when nothing is selected. */
export const hasFilterSelection = (draft: FilterSelection): boolean => modalFilters.some(({ key }) => draft[key].length > 0);

/**
 * The summary's parts, in the spec's order: Search for, Status, Label, Assignee, Tag, SubBrand,
 * Products; then the Reports drill-downs (issue 30): application type, created, completed.
 */
export type SummaryKey = 'q' | 'status' | 'label' | 'assignee' | 'sysLabel' | 'subBrand' | 'products' | 'applicationType' | 'created' | 'completed';

const summaryParts: ReadonlyArray<{ key: SummaryKey; label: string }> = [
  { key: 'q', label: 'Search for' },
  { key: 'status', label: 'Status' },
  { key: 'label', label: 'Label' },
  { key: 'assignee', label: 'Assignee' },
  { key: 'sysLabel', label: 'Tag' },
  { key: 'subBrand', label: 'SubBrand' },
  { key: 'products', label: 'Products' },
  { key: 'applicationType', label: 'Application type' },
  { key: 'created', label: 'Created' },
  { key: 'completed', label: 'Completed' },
];

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2026-01-31' as '31 Jan 2026' (the day as written: these days are the tenant's, not the browser's). */
export function dayLabel(day: string): string {
  const [year, month, date] = day.split('-');
  return `${Number(date)} ${monthNames[Number(month) - 1] ?? month} ${year}`;
}

/** A range of days in words: 'from 1 Jan 2026', 'until 31 Jan 2026', '1 Jan 2026 – 31 Jan 2026', or the one day. */
export function dayRangeLabel(from: string, to: string): string {
  if (from && to) return from === to ? dayLabel(from) : `${dayLabel(from)} – ${dayLabel(to)}`;
  return from ? `from ${dayLabel(from)}` : `until ${dayLabel(to)}`;
}

/** The drill-down parts of the summary: one value each, in words. */
function drillDownValue(key: 'created' | 'completed', query: ApplicationListQuery): string | undefined {
  if (key === 'created') return query.createdFrom || query.createdTo ? dayRangeLabel(query.createdFrom, query.createdTo) : undefined;
  const period = query.completedFrom || query.completedTo ? dayRangeLabel(query.completedFrom, query.completedTo) : undefined;
  if (period) return period;
  if (query.completed === 'true') return 'Yes';
  if (query.completed === 'false') return 'No';
  return undefined;
}

export interface SummaryItem {
  key: SummaryKey;
  label: string;
  /** The first value's display name. */
  first: string;
  /** The other values' display names: shown as '+N', listed for assistive technology. */
  others: string[];
}

/** A value's display name: the option's name, '(None)' for the empty value, else the value itself. */
export function optionName(options: readonly NameValue[], value: string): string {
  if (value === noneValue) return noneOption.Name;
  return options.find((option) => option.Value === value)?.Name ?? value;
}

/** AM §2 'Results filtered:': one removable item per filter in use. */
export function filterSummary(query: ApplicationListQuery, options: FilterOptions): SummaryItem[] {
  return summaryParts.flatMap(({ key, label }): SummaryItem[] => {
    if (key === 'q') return query.q ? [{ key, label, first: query.q, others: [] }] : [];
    if (key === 'created' || key === 'completed') {
      const value = drillDownValue(key, query);
      return value === undefined ? [] : [{ key, label, first: value, others: [] }];
    }
    const names = key === 'applicationType' ? query.applicationType : query[key].map((value) => optionName(options[key], value));
    const [first, ...others] = names;
    return first === undefined ? [] : [{ key, label, first, others }];
  });
}

/** Removing one summary item: that filter (or the search) is dropped; the page goes back to 1 (caller). */
export function withoutFilter(key: SummaryKey): Partial<ApplicationListQuery> {
  if (key === 'q') return { q: '' };
  if (key === 'products') return { products: [], mustHaveAllSelectedProducts: false };
  if (key === 'created') return { createdFrom: '', createdTo: '' };
  // A completion period implies completed; removing 'Completed' removes both.
  if (key === 'completed') return { completedFrom: '', completedTo: '', completed: '' };
  return { [key]: [] };
}

/** The Clear link: every filter and the search go; the sort stays. */
export const withoutAnyFilter: Partial<ApplicationListQuery> = {
  ...emptyFilterSelection,
  products: [],
  mustHaveAllSelectedProducts: false,
  applicationType: [],
  createdFrom: '',
  createdTo: '',
  completedFrom: '',
  completedTo: '',
  completed: '',
  q: '',
};
