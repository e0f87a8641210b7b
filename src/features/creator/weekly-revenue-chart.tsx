import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatRand } from '../../../common/format';

/**
 * The earnings chart (recharts), in a chunk of its own: creator-earnings.tsx loads it lazily. It
 * is hidden from assistive technology and takes no focus (no accessibility layer): the table
 * beside it reads the same figures out.
 */
export function WeeklyRevenueChart({
  weeks,
  seriesName = 'Revenue',
  periodPrefix = 'Week of ',
}: {
  weeks: { label: string; total: number }[];
  /** the tooltip's name of the figure ('Net earnings' on the Earnings tab) */
  seriesName?: string;
  periodPrefix?: string;
}) {
  return (
    <div className="h-56 w-full" aria-hidden="true">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={weeks} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="var(--color-border)" />
          <XAxis dataKey="label" tick={{ fill: 'var(--color-muted)', fontSize: 11 }} tickLine={false} axisLine={false} interval="preserveStartEnd" minTickGap={12} />
          <YAxis tick={{ fill: 'var(--color-muted)', fontSize: 11 }} tickLine={false} axisLine={false} width={56} tickFormatter={(v: number) => formatRand(v, { whole: true })} />
          <Tooltip
            cursor={{ fill: 'rgb(139 92 246 / 0.08)' }}
            contentStyle={{ background: 'var(--color-surface-raised)', border: '1px solid var(--color-border-strong)', borderRadius: 12, color: 'var(--color-foreground)' }}
            labelStyle={{ color: 'var(--color-muted)' }}
            formatter={(value) => [formatRand(Number(value)), seriesName]}
            labelFormatter={(label) => `${periodPrefix}${String(label)}`}
          />
          {/* drawn at once: no motion to sit through (or to catch half-way in a screenshot) */}
          <Bar dataKey="total" fill="var(--color-accent)" radius={[6, 6, 0, 0]} maxBarSize={36} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
