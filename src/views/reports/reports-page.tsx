import { Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { defaultListQuery } from '../../domain/application-query.ts';
import { listHref } from '../../domain/list-view.ts';
import { areaClaims } from '../../domain/navigation.ts';
import { hasClaim } from '../../domain/permissions.ts';
import { chartColours } from '../../domain/chart-colours.ts';
import {
  completedTable,
  initiatedTable,
  lastSectionsTable,
  tableCsv,
  timeToCompleteTable,
  typesCreatedTable,
  type CompletedPeriod,
  type DrillDown,
  type ReportTable,
} from '../../domain/report-tables.ts';
import { knownToday, ReportsContext } from '../../machines/reports.machine.ts';
import { SessionContext } from '../../machines/session.machine.ts';
import type { ReportSummary } from '../../schemas/reports.schema.ts';
import { NoAccessPage } from '../shell/no-access-page.tsx';
import { Button } from '../ui/button.tsx';
import { preloadableLazy } from '../ui/preloadable-lazy.tsx';
import { ReportRangePicker, type DayRange } from './report-range-picker.tsx';
import type { ChartKind, ReportChartProps } from './report-chart.tsx';
import styles from './reports.module.css';

// The charts' code (apexcharts) is fetched as soon as this page's code runs, beside the figures.
const charts = preloadableLazy<ReportChartProps>(() =>
  import('./report-chart.tsx').then((module) => ({ default: module.ReportChart })),
);
void charts.preload();

const chartHeight = 280;

/** SUV §2 /reports (issue 30): the five charts of the tenant's own applications. */
export function ReportsPage() {
  const claims = SessionContext.useSelector((snapshot) => snapshot.context.claims);
  const [params] = useSearchParams();
  // Without the claim the summary would only be refused: the no-access screen, as /users shows (issue 39 point 8).
  if (!hasClaim(claims, areaClaims.reports)) return <NoAccessPage title="Reports" />;
  const range = { from: params.get('from') ?? '', to: params.get('to') ?? '' };
  return (
    <ReportsContext.Provider options={{ input: { range } }}>
      <ReportsView range={range} />
    </ReportsContext.Provider>
  );
}

function ReportsView({ range }: { range: DayRange }) {
  const send = ReportsContext.useActorRef().send;
  const summary = ReportsContext.useSelector((snapshot) => snapshot.context.summary);
  const problem = ReportsContext.useSelector((snapshot) => snapshot.context.problem);
  const failed = ReportsContext.useSelector((snapshot) => snapshot.matches({ data: 'failed' }));
  const invalid = ReportsContext.useSelector((snapshot) => snapshot.matches({ data: 'invalid' }));
  // The figures drawn are those of the address's range (or, while another loads, the last ones):
  // never a range the picker no longer shows (issue 39 point 4).
  const showsFigures = ReportsContext.useSelector(
    (snapshot) => snapshot.matches({ data: 'loaded' }) || snapshot.matches({ data: 'refreshing' }),
  );
  const busy = ReportsContext.useSelector((snapshot) => snapshot.hasTag('busy'));
  const chartsShown = ReportsContext.useSelector((snapshot) => snapshot.matches({ charts: 'shown' }));
  const [, setParams] = useSearchParams();

  // The address is the range's one home: a new range (picked, reloaded, back/forward) reloads.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    send({ type: 'range.change', range: { from: range.from, to: range.to } });
  }, [range.from, range.to, send]);

  const shownRange = summary ? { from: range.from || summary.From, to: range.to || summary.To } : range;
  return (
    <section className={styles.page} aria-labelledby="page-heading" aria-busy={busy}>
      <div className={styles.heading}>
        <h1 id="page-heading">Reports</h1>
        <ReportRangePicker
          value={shownRange}
          today={knownToday(summary)}
          onCommit={(next) => setParams({ from: next.from, to: next.to })}
        />
      </div>
      {failed && (
        <div role="alert" className={styles.failed}>
          <p>The report could not be loaded.</p>
          <Button onPress={() => send({ type: 'report.retry' })}>Retry</Button>
        </div>
      )}
      {/* Asking again cannot succeed: the reason, and no Retry (issue 39 point 5). */}
      {invalid && (
        <div role="alert" className={styles.failed}>
          <p>This date range cannot be reported: {problem}</p>
        </div>
      )}
      {summary && showsFigures && (
        <p className={styles.muted}>
          Applications you can see, {summary.From} to {summary.To} ({summary.TimeZone} time).
        </p>
      )}
      {!failed && !invalid && (
        <div className={styles.grid}>
          <ReportCards summary={chartsShown && showsFigures ? summary : undefined} />
        </div>
      )}
    </section>
  );
}

function ReportCards({ summary }: { summary: ReportSummary | undefined }) {
  const [period, setPeriod] = useState<CompletedPeriod>('month');
  const tenant = SessionContext.useSelector((snapshot) => snapshot.context.tenant);
  const colours = chartColours(tenant?.PrimaryColor ?? '', tenant?.SecondaryColor ?? '');
  const navigate = useNavigate();
  const list = summary?.List ?? 'none';
  const hrefOf = (drillDown: DrillDown | undefined) =>
    drillDown && list !== 'none' ? listHref(list, { ...defaultListQuery, ...drillDown }) : undefined;
  const card = (kind: ChartKind, table: ReportTable | undefined, title: string, extra?: ReactNode) => (
    <ReportCard
      key={title}
      title={title}
      kind={kind}
      table={table}
      colours={colours}
      hrefOf={hrefOf}
      onDrillDown={(drillDown) => {
        const href = hrefOf(drillDown);
        if (href) void navigate(href);
      }}
      extra={extra}
    />
  );
  return (
    <>
      {card('stackedBars', summary && initiatedTable(summary), 'Initiated Applications')}
      {card('pie', summary && typesCreatedTable(summary), 'Application Types Created')}
      {card(
        'columns',
        summary && completedTable(summary, period),
        'Completed Applications',
        <div role="group" aria-label="Completed Applications by" className={styles.periodSwitch}>
          {(['month', 'quarter'] as const).map((value) => (
            <Button
              key={value}
              variant={period === value ? 'primary' : 'secondary'}
              aria-pressed={period === value}
              onPress={() => setPeriod(value)}
            >
              {value === 'month' ? 'By month' : 'By quarter'}
            </Button>
          ))}
        </div>,
      )}
      {card('columns', summary && timeToCompleteTable(summary), 'Time to Complete')}
      {card(
        'horizontalBars',
        summary && lastSectionsTable(summary),
        'Last Section for Incomplete Applications',
      )}
    </>
  );
}

interface ReportCardProps {
  title: string;
  kind: ChartKind;
  table: ReportTable | undefined;
  colours: string[];
  hrefOf: (drillDown: DrillDown | undefined) => string | undefined;
  onDrillDown: (drillDown: DrillDown) => void;
  extra?: ReactNode;
}

/** One chart with its "View as table" and "Download CSV"; a placeholder of the same size until it can draw. */
function ReportCard({ title, kind, table, colours, hrefOf, onDrillDown, extra }: ReportCardProps) {
  const [asTable, setAsTable] = useState(false);
  const headingId = useId();
  const placeholder = (
    <div className={styles.placeholder} style={{ height: chartHeight }} aria-hidden="true" />
  );
  return (
    <section className={styles.card} aria-labelledby={headingId}>
      <div className={styles.cardHeader}>
        <h2 id={headingId}>{title}</h2>
        <div className={styles.cardActions}>
          <Button isDisabled={!table} aria-pressed={asTable} onPress={() => setAsTable(!asTable)}>
            {asTable ? 'View as chart' : 'View as table'}
          </Button>
          <Button isDisabled={!table} onPress={() => table && downloadCsv(table)}>
            Download CSV
          </Button>
        </div>
      </div>
      {extra}
      <div className={styles.body} style={{ minHeight: chartHeight }}>
        {!table ? (
          placeholder
        ) : asTable ? (
          <FiguresTable table={table} hrefOf={hrefOf} />
        ) : table.empty ? (
          <p className={styles.empty} style={{ height: chartHeight }}>
            {table.empty}
          </p>
        ) : (
          <Suspense fallback={placeholder}>
            <div
              role="img"
              aria-label={`${title}: chart; use View as table for the figures`}
              data-chart={kind}
            >
              <charts.Component
                kind={kind}
                table={table}
                colours={colours}
                height={chartHeight}
                onDrillDown={onDrillDown}
              />
            </div>
          </Suspense>
        )}
      </div>
      {table?.note && <p className={styles.note}>{table.note}</p>}
    </section>
  );
}

/** The chart's figures as a real table; each drillable figure is a link to its list. */
function FiguresTable({
  table,
  hrefOf,
}: {
  table: ReportTable;
  hrefOf: (drillDown: DrillDown | undefined) => string | undefined;
}) {
  return (
    <table className={styles.table}>
      <caption className={styles.caption}>{table.title}</caption>
      <thead>
        <tr>
          {table.columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row, rowIndex) => (
          <tr key={rowIndex}>
            {row.map((cell, cellIndex) => {
              if (cellIndex === 0)
                return (
                  <th key={cellIndex} scope="row">
                    {cell.value}
                  </th>
                );
              const href = hrefOf(cell.drillDown);
              return <td key={cellIndex}>{href ? <Link to={href}>{cell.value}</Link> : cell.value}</td>;
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The CSV of the plotted figures, saved by the browser (made here: it holds nothing the page does not show). */
function downloadCsv(table: ReportTable) {
  const url = URL.createObjectURL(new Blob([tableCsv(table)], { type: 'text/csv;charset=utf-8' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = table.fileName;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
