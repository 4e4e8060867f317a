// Insights at /dashboard/insights (issue 12). Placeholder until the page is built; the shell already routes here.
import { PagePlaceholder } from '@tuber/ui';

export default function InsightsPage() {
  return <PagePlaceholder title="Insights" />;
}
