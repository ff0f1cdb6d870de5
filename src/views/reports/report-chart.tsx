import ReactApexChart from 'react-apexcharts';
import type { ApexOptions } from 'apexcharts';
import type { DrillDown, ReportTable } from '../../domain/report-tables.ts';

/**
 * react-apexcharts is CommonJS marked __esModule; the production bundle hands over its exports
 * object as the default import (React error 130 on render), the dev server the component itself.
 */
const isWrapped = (value: unknown): value is { default: typeof ReactApexChart } =>
  typeof value === 'object' && value !== null && 'default' in value;
const imported: unknown = ReactApexChart;
const Chart = isWrapped(imported) ? imported.default : ReactApexChart;

/**
 * One chart of the Reports page, drawn with apexcharts 4.7.0 / react-apexcharts 1.7.0 (the last MIT
 * releases). This module is the only one that imports them, and only the Reports page loads it,
 * lazily. It draws a ReportTable: the same rows the table view and the CSV show.
 */

export type ChartKind = 'stackedBars' | 'pie' | 'columns' | 'horizontalBars';

export interface ReportChartProps {
  kind: ChartKind;
  table: ReportTable;
  colours: string[];
  height: number;
  /** A bar or slice clicked: its drill-down, when it has one. */
  onDrillDown: (drillDown: DrillDown) => void;
}

/** The pie's labels: the page's text colour (contrast 15:1 on the white card and the halo). */
export const pieLabelColour = '#1b1f24';

const numberOf = (value: string | number) => (typeof value === 'number' ? value : Number(value));

export function ReportChart({ kind, table, colours, height, onDrillDown }: ReportChartProps) {
  const categories = table.rows.map((row) => String(row[0]?.value ?? ''));
  const seriesNames = table.columns.slice(1);
  const drill = (seriesIndex: number, dataPointIndex: number) => {
    const cell = kind === 'pie' ? table.rows[dataPointIndex]?.[1] : table.rows[dataPointIndex]?.[seriesIndex + 1];
    if (cell?.drillDown) onDrillDown(cell.drillDown);
  };
  const drillable = table.rows.some((row) => row.some((cell) => cell.drillDown));

  const base: ApexOptions = {
    chart: {
      fontFamily: 'inherit',
      toolbar: { show: false },
      animations: { enabled: false },
      // The table view is the accessible form of the figures; the drawing is an image of them.
      events: { dataPointSelection: (_event, _chart, options: { seriesIndex: number; dataPointIndex: number }) => drill(options.seriesIndex, options.dataPointIndex) },
      ...(drillable ? { cursor: 'pointer' } : {}),
    },
    colors: colours,
    legend: { position: 'bottom' },
    states: { active: { filter: { type: 'none' } } },
  };

  if (kind === 'pie') {
    const options: ApexOptions = {
      ...base,
      labels: categories,
      // The slice's name on the slice: its colour is not the only cue. A long name overhangs a
      // narrow slice onto the card, where white text vanished ("ust Individual", issue 39 point
      // 7): dark text inside a white halo (reports.module.css) reads on any slice and on the card.
      dataLabels: {
        enabled: true,
        formatter: (_value, { seriesIndex }: { seriesIndex: number }) => `${categories[seriesIndex] ?? ''}`,
        dropShadow: { enabled: false },
        style: { fontSize: '11px', colors: [pieLabelColour] },
      },
      plotOptions: { pie: { dataLabels: { offset: -12, minAngleToShowLabel: 12 } } },
      stroke: { colors: ['#ffffff'], width: 2 },
    };
    return <Chart type="pie" height={height} options={options} series={table.rows.map((row) => numberOf(row[1]?.value ?? 0))} />;
  }

  const series = seriesNames.map((name, index) => ({ name, data: table.rows.map((row) => numberOf(row[index + 1]?.value ?? 0)) }));
  const options: ApexOptions = {
    ...base,
    plotOptions: { bar: { horizontal: kind === 'horizontalBars', columnWidth: '60%', barHeight: '60%' } },
    xaxis: { categories },
    // White on the solid series, dark on the hatched one (its stripes leave the background showing).
    dataLabels: { enabled: kind !== 'columns' || categories.length <= 12, style: { colors: ['#ffffff', '#1b1f24'] }, background: { enabled: false } },
    // Two series: the second is hatched, so Complete and Not Complete differ by more than colour.
    fill:
      series.length > 1
        ? { type: ['solid', 'pattern'], pattern: { style: 'slantedLines', width: 6, height: 6, strokeWidth: 2 } }
        : { type: 'solid' },
    ...(kind === 'stackedBars' ? { chart: { ...base.chart, stacked: true } } : {}),
    ...(kind === 'columns' ? { colors: [colours[0] ?? '#1f5f8b'] } : {}),
  };
  return <Chart type="bar" height={height} options={options} series={series} />;
}
