import { useEffect, useRef, type FormEvent } from 'react';
import { filterSummary, modalFilters } from '../../domain/list-filter-summary.ts';
import { moreLabel } from '../../domain/list-format.ts';
import { CloseIcon, FilterIcon } from '../ui/action-icons.tsx';
import { Button } from '../ui/button.tsx';
import { SearchField } from '../ui/search-field.tsx';
import focus from '../ui/focus.module.css';
import { useList, useListSend } from './list-hooks.ts';
import { preloadFiltersModal } from './list-modals.ts';
import styles from './application-list.module.css';

const loadFilters = () => void preloadFiltersModal();

/** AM §2 filter bar: the text search and the 'Filters' modal opener. */
export function ListFilterBar() {
  const send = useListSend();
  const q = useList((snapshot) => snapshot.context.query.q);
  const activeFilters = useList((snapshot) =>
    modalFilters.reduce((count, { key }) => count + (snapshot.context.query[key].length > 0 ? 1 : 0), 0),
  );
  const bar = useRef<HTMLDivElement>(null);
  // A search (Enter, the Search button, the clear button) keeps the keyboard in the search box,
  // also once the new address has rebuilt the form around it.
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    focusSearchField(bar.current);
  }, [q]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = new FormData(event.currentTarget).get('q');
    refocus.current = true;
    focusSearchField(bar.current);
    send({ type: 'search.submit', text: typeof text === 'string' ? text : '' });
  };

  return (
    <div className={styles.bar} ref={bar}>
      {/* Keyed by the address's q: back/forward puts the searched text back in the box. */}
      <form role="search" className={styles.search} onSubmit={submit} key={q}>
        <SearchField
          name="q"
          aria-label="Search applications"
          placeholder="Search by ID, name, e-mail, external ID..."
          defaultValue={q}
          onClear={() => {
            refocus.current = true;
            send({ type: 'search.submit', text: '' });
          }}
        />
        <Button type="submit">Search</Button>
      </form>
      <Button onHoverStart={loadFilters} onFocus={loadFilters} onPress={() => send({ type: 'filters.open' })}>
        <FilterIcon />
        Filters
        {activeFilters > 0 && (
          <span className={styles.badge}>
            {activeFilters}
            <span className={focus.visuallyHidden}> active</span>
          </span>
        )}
      </Button>
    </div>
  );
}

/** The list's search box, found from any element of the list page. */
function focusSearchField(from: Element | null) {
  from?.closest('section')?.querySelector<HTMLInputElement>('form[role="search"] input')?.focus();
}

/**
 * AM §2 'Results filtered:': one removable item per filter in use, '+N' for more values, and Clear.
 * Removing an item moves the keyboard to the item now in its place (or the one before), and to the
 * search box once none is left.
 */
export function FilterSummary() {
  const send = useListSend();
  const query = useList((snapshot) => snapshot.context.query);
  const options = useList((snapshot) => snapshot.context.filterOptions);
  const items = filterSummary(query, options);
  const anchor = useRef<HTMLSpanElement>(null);
  const removed = useRef<number | undefined>(undefined);
  const itemKeys = items.map((item) => item.key).join(' ');
  useEffect(() => {
    const index = removed.current;
    if (index === undefined) return;
    removed.current = undefined;
    const buttons = anchor.current?.parentElement?.querySelectorAll<HTMLButtonElement>('[data-chip-remove]') ?? [];
    const next = buttons[Math.min(index, buttons.length - 1)];
    if (next) next.focus();
    else focusSearchField(anchor.current);
  }, [itemKeys]);

  // Without filters the line takes no room (a search or filter adds it at the person's own request).
  if (items.length === 0) return <span ref={anchor} hidden />;

  return (
    <section className={styles.summary} aria-label="Filters in use">
      <span ref={anchor} hidden />
      <span>Results filtered:</span>
      <ul className={styles.summaryItems}>
        {items.map((item, index) => (
          <li key={item.key} className={styles.chip}>
            <span className={styles.chipText}>
              <strong>{item.label}:</strong> {item.first}
              {item.others.length > 0 && (
                <>
                  <span className={styles.more} aria-hidden="true">
                    {moreLabel(item.others.length)}
                  </span>
                  <span className={focus.visuallyHidden}>, {item.others.join(', ')}</span>
                </>
              )}
            </span>
            <Button
              variant="icon"
              className={styles.chipRemove}
              aria-label={`Remove ${item.label} filter`}
              data-chip-remove
              onPress={() => {
                removed.current = index;
                send({ type: 'filter.remove', key: item.key });
              }}
            >
              <CloseIcon />
            </Button>
          </li>
        ))}
      </ul>
      <Button variant="quiet" className={styles.linkButton} onPress={() => {
          removed.current = 0;
          send({ type: 'filters.clearAll' });
        }}>
        Clear
      </Button>
    </section>
  );
}
