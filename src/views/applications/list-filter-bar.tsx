import type { FormEvent } from 'react';
import { filterSummary, modalFilters } from '../../domain/list-filter-summary.ts';
import { moreLabel } from '../../domain/list-format.ts';
import { CloseIcon, FilterIcon } from '../ui/action-icons.tsx';
import { Button } from '../ui/button.tsx';
import { SearchField } from '../ui/search-field.tsx';
import focus from '../ui/focus.module.css';
import { useList, useListSend } from './list-hooks.ts';
import styles from './application-list.module.css';

/** AM §2 filter bar: the text search and the 'Filters' modal opener. */
export function ListFilterBar() {
  const send = useListSend();
  const q = useList((snapshot) => snapshot.context.query.q);
  const activeFilters = useList((snapshot) =>
    modalFilters.reduce((count, { key }) => count + (snapshot.context.query[key].length > 0 ? 1 : 0), 0),
  );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = new FormData(event.currentTarget).get('q');
    send({ type: 'search.submit', text: typeof text === 'string' ? text : '' });
  };

  return (
    <div className={styles.bar}>
      {/* Keyed by the address's q: back/forward puts the searched text back in the box. */}
      <form role="search" className={styles.search} onSubmit={submit} key={q}>
        <SearchField
          name="q"
          aria-label="Search applications"
          placeholder="Search by ID, name, e-mail, external ID..."
          defaultValue={q}
          onClear={() => send({ type: 'search.submit', text: '' })}
        />
        <Button type="submit">Search</Button>
      </form>
      <Button onPress={() => send({ type: 'filters.open' })}>
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

/** AM §2 'Results filtered:': one removable item per filter in use, '+N' for more values, and Clear. */
export function FilterSummary() {
  const send = useListSend();
  const query = useList((snapshot) => snapshot.context.query);
  const options = useList((snapshot) => snapshot.context.filterOptions);
  const items = filterSummary(query, options);
  // The line stays (empty) without filters, so the first search or filter does not push the results down.
  if (items.length === 0) return <div className={styles.summary} />;

  return (
    <section className={styles.summary} aria-label="Filters in use">
      <span>Results filtered:</span>
      <ul className={styles.summaryItems}>
        {items.map((item) => (
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
              onPress={() => send({ type: 'filter.remove', key: item.key })}
            >
              <CloseIcon />
            </Button>
          </li>
        ))}
      </ul>
      <Button variant="quiet" className={styles.linkButton} onPress={() => send({ type: 'filters.clearAll' })}>
        Clear
      </Button>
    </section>
  );
}
