/**
 * The parts of ECharts the portal draws with, registered once: bar charts on a grid with a tooltip and
 * a legend, drawn as SVG (crisp at any zoom). Only EChart loads this module, on demand, so ECharts
 * (about 175 KiB gzipped even tree-shaken) is its own async chunk, fetched once a chart is on screen.
 * A chart type or component not registered here is silently not drawn: add it here and to ChartOption
 * (EChart.tsx) together.
 */
import { BarChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
// `use` renamed: it registers ECharts parts, it is not a React hook.
import { init, use as register } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

register([BarChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export { init };
