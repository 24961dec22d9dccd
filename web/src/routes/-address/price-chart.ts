// The price-history chart's geometry: a step line (a price holds until the next change) through the points,
// scaled into a fixed box so the chart reserves its size before and after loading.

export type ChartPoint = { at: string; price: string };
export type ChartGeometry = { path: string; dots: { x: number; y: number }[]; min: number; max: number };

/**
 * SVG path of the prices over time in a `width` x `height` box with `pad` inside each edge. The line runs on to
 * `now` at the last price. A flat history draws at mid-height. Null when there is nothing to draw.
 */
export function priceChart(points: readonly ChartPoint[], now: number, width: number, height: number, pad = 4): ChartGeometry | null {
  const data = points.map((p) => ({ t: new Date(p.at).getTime(), v: Number(p.price) })).filter((p) => Number.isFinite(p.t) && Number.isFinite(p.v));
  if (data.length === 0) return null;
  const t0 = data[0].t;
  const t1 = Math.max(now, data[data.length - 1].t, t0 + 1);
  const min = Math.min(...data.map((p) => p.v));
  const max = Math.max(...data.map((p) => p.v));
  const x = (t: number) => pad + ((t - t0) / (t1 - t0)) * (width - 2 * pad);
  const y = (v: number) => (max === min ? height / 2 : pad + (1 - (v - min) / (max - min)) * (height - 2 * pad));
  const r = (n: number) => Math.round(n * 10) / 10;
  const dots = data.map((p) => ({ x: r(x(p.t)), y: r(y(p.v)) }));
  let path = `M${dots[0].x},${dots[0].y}`;
  for (let i = 1; i < dots.length; i++) path += ` H${dots[i].x} V${dots[i].y}`;
  path += ` H${r(x(t1))}`;
  return { path, dots, min, max };
}
