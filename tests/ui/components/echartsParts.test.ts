// The chart module registers exactly the ECharts parts the portal draws with (tree-shaking keeps the
// rest out of the bundle); the packages are stubbed: ECharts needs a canvas and layout jsdom lacks.
jest.mock('echarts/core', () => ({ use: jest.fn(), init: jest.fn() }));
jest.mock('echarts/charts', () => ({ BarChart: 'BarChart' }));
jest.mock('echarts/components', () => ({
  GridComponent: 'GridComponent',
  LegendComponent: 'LegendComponent',
  TooltipComponent: 'TooltipComponent',
}));
jest.mock('echarts/renderers', () => ({ SVGRenderer: 'SVGRenderer' }));

test('registers bar charts, grid, legend, tooltip and the SVG renderer, and exports init', () => {
  const parts = require('@/components/charts/echarts');
  const core = require('echarts/core');
  expect(core.use).toHaveBeenCalledTimes(1);
  expect(core.use).toHaveBeenCalledWith([
    'BarChart',
    'GridComponent',
    'LegendComponent',
    'TooltipComponent',
    'SVGRenderer',
  ]);
  expect(parts.init).toBe(core.init);
});
