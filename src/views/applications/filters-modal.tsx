import { noneValue } from '../../domain/application-query.ts';
import { modalFilters } from '../../domain/list-filter-summary.ts';
import type { NameValue } from '../../schemas/applications.schema.ts';
import { Button } from '../ui/button.tsx';
import { ModalDialog } from '../ui/dialog.tsx';
import { MultiSelect, type SelectOption } from '../ui/multi-select.tsx';
import { useList, useListSend } from './list-hooks.ts';
import styles from './application-list.module.css';

// react-aria needs a non-empty key; the '(None)' option's value is empty (AM §2).
const noneKey = '(none)';
const toKey = (value: string): string => (value === noneValue ? noneKey : value);
const fromKey = (key: string): string => (key === noneKey ? noneValue : key);
const toOptions = (options: readonly NameValue[]): SelectOption[] =>
  options.map((option) => ({ id: toKey(option.Value), name: option.Name }));

/** AM §2 the 'Filters' modal; the page mounts it while the machine is filtering. */
export function FiltersModal() {
  const send = useListSend();
  return (
    <ModalDialog
      title="Filters"
      isOpen
      isDismissable
      onOpenChange={(isOpen) => {
        if (!isOpen) send({ type: 'filters.cancel' });
      }}
    >
      <FiltersForm />
    </ModalDialog>
  );
}

function FiltersForm() {
  const send = useListSend();
  const draft = useList((snapshot) => snapshot.context.filterDraft);
  const options = useList((snapshot) => snapshot.context.filterOptions);
  const canApply = useList((snapshot) => snapshot.can({ type: 'filters.apply' }));
  const canClear = useList((snapshot) => snapshot.can({ type: 'filters.clear' }));

  return (
    <>
      {modalFilters.map(({ key, label }) => (
        <MultiSelect
          key={key}
          label={label}
          options={toOptions(options[key])}
          selected={draft[key].map(toKey)}
          onChange={(keys) => send({ type: 'filters.change', key, values: keys.map(fromKey) })}
        />
      ))}
      <div className={styles.dialogButtons}>
        <Button onPress={() => send({ type: 'filters.cancel' })}>Cancel</Button>
        <Button isDisabled={!canClear} onPress={() => send({ type: 'filters.clear' })}>
          Clear
        </Button>
        <Button variant="primary" isDisabled={!canApply} onPress={() => send({ type: 'filters.apply' })}>
          Apply
        </Button>
      </div>
    </>
  );
}
