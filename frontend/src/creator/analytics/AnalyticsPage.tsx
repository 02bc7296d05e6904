import { useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import { LineChart } from '@mui/x-charts/LineChart';
import type { FunnelResource } from '@branchify/shared';
import { api, query } from '../../shared/api';
import { downloadFile } from '../../shared/download';
import { useAlert } from '../../shared/alerts';
import { useCustomization } from '../../shared/customization';
import { useFunnel } from '../../shared/data/queries';
import { DateRangePicker, type DateRange } from '../../shared/inputs/DateRangePicker';
import { Loaded, Loader } from '../../shared/Loader';
import { useModals } from '../../shared/modals';
import { usePageTitle } from '../../shared/usePageTitle';
import { ShareFunnelModal } from '../funnels/ShareFunnelModal';
import { PageHeader } from '../layout/UserLayout';
import { FunnelMap } from '../map/FunnelMap';
import { hasData, headlines, lastThirtyDays, mapStatsOf, type AnalyticsReport } from './report';

/** FunnelAnalytics (funnels/{id}/analytics). */
export const AnalyticsPage = () => {
  const { id } = useParams();
  const funnel = useFunnel(id);
  const { customization } = useCustomization();
  usePageTitle(funnel.data ? `Analytics: ${funnel.data.title}` : 'Analytics', customization.app_name);
  return <Loaded query={funnel}>{(f) => <Analytics funnel={f} />}</Loaded>;
};

const useReport = (funnelId: number, range: DateRange) =>
  useQuery({
    queryKey: ['funnels', 'analytics', String(funnelId), range.from, range.to],
    queryFn: async () => (await api.post<AnalyticsReport>(`funnels/${funnelId}/analytics`, range)).data,
    placeholderData: keepPreviousData,
  });

const Analytics = ({ funnel }: { funnel: FunnelResource }) => {
  const [range, setRange] = useState<DateRange>(() => lastThirtyDays());
  const report = useReport(funnel.id, range);
  return (
    <>
      <PageHeader title={`Analytics: ${funnel.title}`}>
        <Box sx={{ width: 250 }}>
          <DateRangePicker label="Date range" value={range} onChange={setRange} />
        </Box>
        <Button component={RouterLink} to={`/funnels/${funnel.id}/edit`} startIcon={<EditIcon />}>
          Edit funnel
        </Button>
        <Button component={RouterLink} to="/funnels">
          Back to funnels
        </Button>
      </PageHeader>
      {report.isPending ? (
        <Loader label="Loading analytics" />
      ) : report.isError || !report.data ? (
        <Loaded query={report}>{() => null}</Loaded>
      ) : (
        <Box sx={{ opacity: report.isPlaceholderData ? 0.6 : 1 }} aria-busy={report.isFetching} data-testid="analytics-report">
          <Report funnel={funnel} report={report.data} />
        </Box>
      )}
    </>
  );
};

const Figures = ({ report }: { report: AnalyticsReport }) => (
  <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(140px, 1fr))', gap: 2, m: 0, mb: 3 }}>
    {headlines(report).map((h) => (
      <Paper key={h.label} sx={{ p: 2 }} data-testid={`figure-${h.label}`}>
        <Typography component="dt" variant="body2" color="text.secondary">
          {h.label}
        </Typography>
        <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 700 }}>
          {h.value}
        </Typography>
      </Paper>
    ))}
  </Box>
);

const ViewsChart = ({ report }: { report: AnalyticsReport }) => {
  const [asTable, setAsTable] = useState(false);
  const peak = report.series.reduce((best, d) => (d.views > best.views ? d : best), report.series[0] ?? { date: '', views: 0, clicks: 0 });
  const summary = `${report.views.total} views from ${report.range.from} to ${report.range.to}${peak.views ? `, most on ${peak.date} (${peak.views})` : ''}.`;
  return (
    <Paper component="section" aria-labelledby="views-per-day" sx={{ p: 2, mb: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography id="views-per-day" variant="h6" component="h2" sx={{ flex: 1 }}>
          Views per day
        </Typography>
        <Button onClick={() => setAsTable((t) => !t)} aria-pressed={asTable}>
          {asTable ? 'Show chart' : 'Show as table'}
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary" data-testid="chart-summary">
        {summary}
      </Typography>
      {asTable ? (
        <Table size="small" aria-label="Views and clicks per day">
          <TableHead>
            <TableRow>
              <TableCell>Date</TableCell>
              <TableCell align="right">Views</TableCell>
              <TableCell align="right">Clicks</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {report.series.map((d) => (
              <TableRow key={d.date}>
                <TableCell>{d.date}</TableCell>
                <TableCell align="right">{d.views}</TableCell>
                <TableCell align="right">{d.clicks}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : (
        <Box role="img" aria-label={`Chart of views and clicks per day. ${summary}`}>
          <LineChart
            height={280}
            xAxis={[{ data: report.series.map((d) => d.date), scaleType: 'point', valueFormatter: (v: string) => v.slice(5) }]}
            series={[
              { data: report.series.map((d) => d.views), label: 'Views', color: '#2f27ce', curve: 'linear' },
              { data: report.series.map((d) => d.clicks), label: 'Clicks', color: '#00695c', curve: 'linear' },
            ]}
          />
        </Box>
      )}
    </Paper>
  );
};

/** The CSV of the figures for the range, saved as the file the server names. */
const exportCsv = (funnelId: number, range: DateRange) =>
  downloadFile(`/api/funnels/${funnelId}/analytics.csv${query({ from: range.from, to: range.to })}`, `funnel-${funnelId}-analytics.csv`);

const ExportButton = ({ funnelId, range }: { funnelId: number; range: DateRange }) => {
  const alert = useAlert();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await exportCsv(funnelId, range);
    } catch (error) {
      alert.error(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button startIcon={<DownloadIcon />} disabled={busy} onClick={() => void download()}>
      Export CSV
    </Button>
  );
};

const Report = ({ funnel, report }: { funnel: FunnelResource; report: AnalyticsReport }) => {
  const stats = useMemo(() => mapStatsOf(report), [report]);
  const modals = useModals();
  if (!hasData(report)) {
    return (
      <Paper sx={{ p: 6, textAlign: 'center' }} data-testid="analytics-empty">
        <Typography variant="h6" component="h2" gutterBottom>
          No views in this date range yet.
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          Share your funnel; views and clicks show here as viewers watch it. Pick another date range to see earlier figures.
        </Typography>
        <Button
          variant="contained"
          onClick={() =>
            modals.open({
              name: 'share-funnel',
              title: 'Share Funnel',
              render: ({ close }) => <ShareFunnelModal identifier={funnel.identifier} close={close} />,
            })
          }
        >
          Share funnel
        </Button>
      </Paper>
    );
  }
  return (
    <>
      <Figures report={report} />
      <ViewsChart report={report} />
      <Paper component="section" aria-labelledby="map-title" sx={{ p: 2 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
          <Typography id="map-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            Where viewers go
          </Typography>
          <ExportButton funnelId={funnel.id} range={report.range} />
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Each branch shows the views that took it and their share of its video's views; each video shows the views that reached it and how many stopped there.
          A viewer who plays the funnel twice counts as two views.
        </Typography>
        <FunnelMap videos={funnel.videos} stats={stats} label="Funnel map with view figures" />
      </Paper>
    </>
  );
};
