import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { parseDate, type CalendarDate } from '@internationalized/date';
import {
  Button,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DateRangePicker,
  DateSegment,
  Dialog,
  Group,
  Heading,
  Label,
  Popover,
  RangeCalendar,
} from 'react-aria-components';
import { isIsoDay } from '../../domain/list-request.ts';
import { checkRange } from '../../domain/report-periods.ts';
import styles from './reports.module.css';

export interface DayRange {
  from: string;
  to: string;
}

interface CalendarRange {
  start: CalendarDate;
  end: CalendarDate;
}

const dateOf = (day: string): CalendarDate | null => (isIsoDay(day) ? parseDate(day) : null);
const calendarRangeOf = (range: DayRange): CalendarRange | null => {
  const start = dateOf(range.from);
  const end = dateOf(range.to);
  return start && end ? { start, end } : null;
};

/**
 * The report's date range (react-aria DateRangePicker): typed segment by segment or picked in a
 * calendar; keyboard and screen reader work as react-aria makes them.
 *
 * What is typed is a draft: a year typed digit by digit passes through 0002, 0020 and 0202, each a
 * whole date to react-aria. The range is handed on (one history entry) only when the person is
 * done — Enter, focus leaving the picker, or a range picked in the calendar — and only when the
 * shared rule accepts it; otherwise the rule's reason is shown here and nothing is asked (issue 39
 * points 4 and 5). When the address changes (Back, a link) the draft follows it.
 */
export function ReportRangePicker({
  value,
  today,
  onCommit,
}: {
  value: DayRange;
  /** The tenant's day when known: the calendar offers nothing after it, and the rule refuses it. */
  today: string | undefined;
  onCommit: (range: DayRange) => void;
}) {
  const [draft, setDraft] = useState<CalendarRange | null>(() => calendarRangeOf(value));
  const [problem, setProblem] = useState<string | undefined>();
  const [following, setFollowing] = useState(value);
  // Read by a commit in the same event as the change (a calendar pick closes the popover at once).
  const latest = useRef(draft);
  if (following.from !== value.from || following.to !== value.to) {
    setFollowing(value);
    setDraft(calendarRangeOf(value));
    setProblem(undefined);
  }
  useEffect(() => {
    latest.current = draft;
  }, [draft]);
  const problemId = useId();

  const commit = () => {
    const range = latest.current;
    if (!range) return;
    const next = { from: range.start.toString(), to: range.end.toString() };
    if (next.from === value.from && next.to === value.to) {
      setProblem(undefined);
      return;
    }
    const refusal = checkRange(next, today);
    setProblem(refusal && `${refusal.param}: ${refusal.message}`);
    if (!refusal) onCommit(next);
  };

  return (
    // Enter is heard on the way down: the date segments keep it to themselves.
    <div
      className={styles.rangeField}
      onKeyDownCapture={(event: KeyboardEvent) => {
        if (event.key === 'Enter') commit();
      }}
    >
      <DateRangePicker
        className={styles.rangePicker}
        value={draft}
        maxValue={today ? dateOf(today) : null}
        isInvalid={problem !== undefined}
        aria-describedby={problem ? problemId : undefined}
        startName="from"
        endName="to"
        onChange={(range) => {
          latest.current = range && { start: range.start, end: range.end };
          setDraft(latest.current);
        }}
        onBlur={commit}
        onOpenChange={(open) => {
          if (!open) commit();
        }}
      >
        <Label className={styles.rangeLabel}>Date range</Label>
        <Group className={styles.rangeGroup}>
          <DateInput slot="start" className={styles.dateInput}>
            {(segment) => <DateSegment segment={segment} className={styles.segment} />}
          </DateInput>
          <span aria-hidden="true">–</span>
          <DateInput slot="end" className={styles.dateInput}>
            {(segment) => <DateSegment segment={segment} className={styles.segment} />}
          </DateInput>
          <Button className={styles.calendarButton} aria-label="Open calendar">
            ▾
          </Button>
        </Group>
        <Popover className={styles.popover}>
          <Dialog className={styles.calendarDialog} aria-label="Choose a date range">
            <RangeCalendar className={styles.calendar}>
              <header className={styles.calendarHeader}>
                <Button slot="previous" className={styles.calendarNav}>
                  ◀
                </Button>
                <Heading />
                <Button slot="next" className={styles.calendarNav}>
                  ▶
                </Button>
              </header>
              <CalendarGrid>
                {(date) => <CalendarCell date={date} className={styles.calendarCell} />}
              </CalendarGrid>
            </RangeCalendar>
          </Dialog>
        </Popover>
      </DateRangePicker>
      {problem && (
        <p id={problemId} role="alert" className={styles.rangeProblem}>
          {problem}
        </p>
      )}
    </div>
  );
}
