// A chart on screen as a file of its own: SVG (the drawing recharts made, with the theme's CSS
// variables written in as colours, so it looks the same outside the page) or PNG (that SVG drawn
// on a canvas at twice its size). Text in it (policy names from an imported file) goes through
// the XML serializer, so it stays text; the file carries no script.

import { downloadBlob } from '../../download.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const PAINTED = ['fill', 'stroke', 'color', 'stop-color'] as const;

/** `var(--name)` (with an optional fallback) replaced by the value the page's theme gives it. */
function resolveVariables(value: string, theme: CSSStyleDeclaration): string {
  return value.replace(/var\((--[\w-]+)(?:,\s*([^)]*))?\)/g, (_match, name: string, fallback?: string) => theme.getPropertyValue(name).trim() || fallback?.trim() || 'currentColor');
}

/**
 * The chart in `figure` as a standalone SVG document: its drawing, titled with the figure's
 * accessible name, on the theme's background, every colour resolved.
 */
export function chartSvg(figure: HTMLElement): { svg: string; width: number; height: number } {
  // The chart's own drawing; a legend's icons are small surfaces of their own, in HTML beside it.
  const surface = figure.querySelector<SVGSVGElement>('.recharts-wrapper > svg.recharts-surface');
  if (!surface) throw new Error('the chart has not been drawn yet');
  const box = surface.getBoundingClientRect();
  const { width } = box;
  const legend = legendOf(figure);
  // Where recharts put its HTML legend, in the chart's coordinates (it keeps room for it inside).
  const legendBox = figure.querySelector('.recharts-legend-wrapper')?.getBoundingClientRect();
  const legendTop = legendBox ? legendBox.top - box.top : box.height;
  const height = legend.length > 0 ? Math.max(box.height, legendTop + LEGEND_ROW_PX) : box.height;
  const theme = getComputedStyle(document.documentElement);
  const copy = surface.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', SVG_NS);
  copy.setAttribute('width', String(Math.round(width)));
  copy.setAttribute('height', String(Math.round(height)));
  copy.setAttribute('viewBox', `0 0 ${Math.round(width)} ${Math.round(height)}`);
  copy.removeAttribute('style');
  // Its text in the page's font, which the page's CSS gave it and a standalone file would not.
  copy.setAttribute('font-family', getComputedStyle(surface).fontFamily);
  for (const element of [copy, ...copy.querySelectorAll<SVGElement>('*')]) {
    for (const attribute of PAINTED) {
      const value = element.getAttribute(attribute);
      if (value?.includes('var(')) element.setAttribute(attribute, resolveVariables(value, theme));
    }
    const style = element.getAttribute('style');
    if (style?.includes('var(')) element.setAttribute('style', resolveVariables(style, theme));
  }
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', theme.getPropertyValue('--surface').trim() || 'white');
  copy.insertBefore(background, copy.firstChild);
  drawLegend(copy, legend, legendTop, theme);
  const title = document.createElementNS(SVG_NS, 'title');
  title.textContent = figure.getAttribute('aria-label') ?? 'Chart';
  copy.insertBefore(title, copy.firstChild);
  return { svg: new XMLSerializer().serializeToString(copy), width, height };
}

const LEGEND_ROW_PX = 24;

/** The legend recharts drew in HTML below the chart: each entry's text and colour. */
function legendOf(figure: HTMLElement): Array<{ text: string; color: string }> {
  return [...figure.querySelectorAll<HTMLElement>('.recharts-legend-item')].map((item) => {
    const icon = item.querySelector('path, rect, line');
    return {
      text: item.querySelector('.recharts-legend-item-text')?.textContent?.trim() ?? item.textContent?.trim() ?? '',
      color: icon?.getAttribute('fill') && icon.getAttribute('fill') !== 'none' ? icon.getAttribute('fill')! : (icon?.getAttribute('stroke') ?? 'currentColor'),
    };
  });
}

/** The legend as a row of swatches and names below the chart, inside the SVG. */
function drawLegend(svg: SVGSVGElement, legend: ReadonlyArray<{ text: string; color: string }>, top: number, theme: CSSStyleDeclaration): void {
  let x = 8;
  for (const { text, color } of legend) {
    const swatch = document.createElementNS(SVG_NS, 'rect');
    Object.entries({ x: String(x), y: String(top + 4), width: '10', height: '10', fill: resolveVariables(color, theme) }).forEach(([name, value]) => swatch.setAttribute(name, value));
    const label = document.createElementNS(SVG_NS, 'text');
    Object.entries({ x: String(x + 14), y: String(top + 13), 'font-size': '11', fill: theme.getPropertyValue('--text').trim() || 'black' }).forEach(([name, value]) => label.setAttribute(name, value));
    label.textContent = text;
    svg.append(swatch, label);
    // Names are short (aliases, tools); a generous width per character keeps them apart.
    x += 24 + text.length * 7;
  }
}

export function downloadChartSvg(figure: HTMLElement, fileName: string): void {
  const { svg } = chartSvg(figure);
  downloadBlob(new Blob([svg], { type: 'image/svg+xml' }), fileName);
}

/** The chart as a PNG at `scale` times its size on screen. */
export async function downloadChartPng(figure: HTMLElement, fileName: string, scale = 2): Promise<void> {
  const { svg, width, height } = chartSvg(figure);
  const image = new Image();
  // A data: URL, which the page's img-src allows; an image drawn from it leaves the canvas clean.
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this browser cannot draw on a canvas');
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the chart could not be turned into a PNG');
  downloadBlob(blob, fileName);
}
